import type { AccountType, Role, User } from "~/models/user.server";

/** The user as the browser sees it: no OIDC subject, money as a decimal string. */
export type PublicUser = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: Role;
  accountType: AccountType;
  deposit: string;
  verified: boolean;
  createdAt: string;
};

export function toPublicUser(user: User): PublicUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    accountType: user.accountType,
    deposit: user.deposit,
    verified: user.verified,
    createdAt: user.createdAt.toISOString(),
  };
}
