// Signed one-click unsubscribe links: whoever holds the link may stop one topic of mail for one
// person, without signing in; nobody can make one for someone else (docs/decisions/2152).
import { createHmac, timingSafeEqual } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { env } from "~/platform/env.server";
import { UserError } from "~/utils/user-error";
import { MAIL_TOPICS, type MailTopic } from "./topics";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function signature(secret: string, payload: string) {
  return createHmac("sha256", secret)
    .update(`bidyard-unsubscribe\n${payload}`)
    .digest()
    .subarray(0, 18)
    .toString("base64url");
}

/** `<user id>.<topic>.<signature>`, signed with the newest session secret. */
export function unsubscribeToken(userId: string, topic: MailTopic) {
  const payload = `${userId}.${topic}`;
  return `${payload}.${signature(env().SESSION_SECRETS[0], payload)}`;
}

export function unsubscribeUrl(userId: string, topic: MailTopic) {
  return `${new URL(env().APP_URL).origin}/unsubscribe/${unsubscribeToken(userId, topic)}`;
}

export class BadUnsubscribeLinkError extends UserError {
  constructor() {
    super("This unsubscribe link is not valid. Open the newest link from one of our e-mails.", {
      status: 400,
      title: "Link not valid",
    });
  }
}

/** The person and topic a token names; a 400 when it was not made by us (any live secret). */
export function readUnsubscribeToken(token: string | undefined): {
  userId: string;
  topic: MailTopic;
} {
  const parts = (token ?? "").split(".");
  if (parts.length !== 3) throw new BadUnsubscribeLinkError();
  const [userId, topic, given] = parts;
  if (!UUID.test(userId) || !(MAIL_TOPICS as readonly string[]).includes(topic))
    throw new BadUnsubscribeLinkError();
  const givenBytes = Buffer.from(given, "utf8");
  const valid = env().SESSION_SECRETS.some((secret) => {
    const expected = Buffer.from(signature(secret, `${userId}.${topic}`), "utf8");
    return expected.length === givenBytes.length && timingSafeEqual(expected, givenBytes);
  });
  if (!valid) throw new BadUnsubscribeLinkError();
  return { userId, topic: topic as MailTopic };
}

/** Stops `topic` for the person the token names and cancels what still waits to be sent. */
export async function unsubscribe(token: string | undefined) {
  const { userId, topic } = readUnsubscribeToken(token);
  await sequelize.transaction(async (transaction) => {
    await sequelize.query(
      `INSERT INTO mail_unsubscribes (user_id, topic)
         SELECT id, :topic FROM users WHERE id = :userId
       ON CONFLICT DO NOTHING`,
      { replacements: { userId, topic }, transaction },
    );
    await sequelize.query(
      `UPDATE mail_outbox SET status = 'cancelled', updated_at = now()
        WHERE user_id = :userId AND topic = :topic AND status = 'pending'`,
      { replacements: { userId, topic }, transaction },
    );
  });
  return { userId, topic };
}

/** Undoes an unsubscribe (the confirmation page offers it). */
export async function resubscribe(token: string | undefined) {
  const { userId, topic } = readUnsubscribeToken(token);
  await sequelize.query(
    "DELETE FROM mail_unsubscribes WHERE user_id = :userId AND topic = :topic",
    {
      replacements: { userId, topic },
    },
  );
  return { userId, topic };
}

export async function isUnsubscribed(userId: string, topic: MailTopic, transaction?: Transaction) {
  const rows = await sequelize.query(
    "SELECT 1 FROM mail_unsubscribes WHERE user_id = :userId AND topic = :topic",
    { replacements: { userId, topic }, type: QueryTypes.SELECT, transaction },
  );
  return rows.length > 0;
}
