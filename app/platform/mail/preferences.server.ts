// A person's e-mail preferences (docs/decisions/2754): one per topic, kept as the topics they
// stopped (mail_unsubscribes, the same rows a one-click unsubscribe writes), so a link in an
// e-mail and the account page always agree.
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { MAIL_TOPICS, type MailTopic } from "./topics";

/** Every topic and whether the person gets it. */
export async function mailPreferences(userId: string): Promise<Record<MailTopic, boolean>> {
  const stopped = await sequelize.query<{ topic: string }>(
    "SELECT topic FROM mail_unsubscribes WHERE user_id = :userId",
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  const off = new Set(stopped.map((row) => row.topic));
  return Object.fromEntries(MAIL_TOPICS.map((topic) => [topic, !off.has(topic)])) as Record<
    MailTopic,
    boolean
  >;
}

/**
 * Sets every preference at once: the topics in `wanted` are sent, the others stopped, and mail of
 * a stopped topic still waiting in the outbox is cancelled (as an unsubscribe does).
 */
export async function setMailPreferences(userId: string, wanted: readonly MailTopic[]) {
  const stopped = MAIL_TOPICS.filter((topic) => !wanted.includes(topic));
  await sequelize.transaction(async (transaction) => {
    await sequelize.query(
      "DELETE FROM mail_unsubscribes WHERE user_id = :userId AND topic IN (:wanted)",
      { replacements: { userId, wanted: wanted.length ? wanted : [""] }, transaction },
    );
    if (stopped.length === 0) return;
    await sequelize.query(
      `INSERT INTO mail_unsubscribes (user_id, topic)
         SELECT :userId, unnest(ARRAY[:stopped]::text[])
       ON CONFLICT DO NOTHING`,
      { replacements: { userId, stopped }, transaction },
    );
    await sequelize.query(
      `UPDATE mail_outbox SET status = 'cancelled', updated_at = now()
        WHERE user_id = :userId AND topic IN (:stopped) AND status = 'pending'`,
      { replacements: { userId, stopped }, transaction },
    );
  });
}
