import { Op, UniqueConstraintError } from "sequelize";
import { sequelize } from "~/models/db.server";
import { User, type AccountType } from "~/models/user.server";
import { env } from "~/platform/env.server";
import { SignInError, type Identity } from "./auth.server";
import { clientAddress, consumeRateLimit } from "~/platform/rate-limit.server";
import { getSettings } from "~/services/admin/settings.server";

const isAdminEmail = (identity: Identity) =>
  identity.emailVerified && env().adminEmails.includes(identity.email.toLowerCase());

async function findByEmail(email: string) {
  return User.findOne({
    where: sequelize.where(sequelize.fn("lower", sequelize.col("email")), email.toLowerCase()),
  });
}

/** Names typed in the registration form before this sign-in (none for a plain Sign In). */
export type RegisteredNames = {
  firstName?: string | null;
  lastName?: string | null;
  /** Kept on the account unless it already has one (docs/decisions/3304). */
  phone?: string | null;
};

/**
 * The user behind a verified identity: found by OIDC subject, else a seeded or earlier account
 * claimed by its (verified) e-mail, else a new account of `accountType`. A new account takes
 * the issuer's names, or else the names typed when registering.
 */
export async function userForIdentity(
  identity: Identity,
  accountType: AccountType,
  /** The sign-in's request: a new account counts against its address's sign-up limit. */
  request?: Request,
  registered: RegisteredNames = {},
): Promise<{ user: User; isNew: boolean }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await upsert(identity, accountType, request, registered);
    } catch (error) {
      // Two first sign-ins of one person at once: the loser finds the winner's row next time.
      if (error instanceof UniqueConstraintError && attempt === 0) continue;
      throw error;
    }
  }
}

async function upsert(
  identity: Identity,
  accountType: AccountType,
  request: Request | undefined,
  registered: RegisteredNames,
) {
  const admin = isAdminEmail(identity);
  const bySubject = await User.findOne({ where: { oidcSubject: identity.subject } });
  if (bySubject) {
    const changes: Partial<User> = {};
    if (identity.firstName) changes.firstName = identity.firstName;
    if (identity.lastName) changes.lastName = identity.lastName;
    if (admin) changes.role = "admin";
    if (registered.phone && !bySubject.phone) changes.phone = registered.phone;
    if (identity.email !== bySubject.email.toLowerCase()) {
      const taken = await User.findOne({
        where: {
          id: { [Op.ne]: bySubject.id },
          [Op.and]: [
            sequelize.where(sequelize.fn("lower", sequelize.col("email")), identity.email),
          ],
        },
      });
      if (!taken) changes.email = identity.email;
    }
    if (Object.keys(changes).length > 0) await bySubject.update(changes);
    return { user: bySubject, isNew: false };
  }

  const byEmail = await findByEmail(identity.email);
  if (byEmail) {
    if (byEmail.oidcSubject || !identity.emailVerified) {
      throw new SignInError(
        "An account with this e-mail address already exists and is linked to another sign-in. Please contact support.",
        409,
      );
    }
    await byEmail.update({
      oidcSubject: identity.subject,
      ...(identity.firstName ? { firstName: identity.firstName } : {}),
      ...(identity.lastName ? { lastName: identity.lastName } : {}),
      ...(admin ? { role: "admin" as const } : {}),
      ...(registered.phone && !byEmail.phone ? { phone: registered.phone } : {}),
    });
    return { user: byEmail, isNew: false };
  }

  if (!(await getSettings()).registrationOpen) {
    throw new SignInError(
      "New registrations are paused right now. If you already have an account, sign in with its e-mail address; otherwise please try again later.",
      403,
    );
  }
  if (request) await consumeRateLimit(request, "signUp", clientAddress(request));
  const user = await User.create({
    oidcSubject: identity.subject,
    email: identity.email,
    firstName: identity.firstName ?? registered.firstName ?? null,
    lastName: identity.lastName ?? registered.lastName ?? null,
    phone: registered.phone ?? null,
    accountType,
    role: admin ? "admin" : "user",
  });
  return { user, isNew: true };
}
