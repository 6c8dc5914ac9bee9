// The Contact page's messages: kept in the admins' inbox (/admin/contact) and mailed to every
// admin through the outbox, under their "New messages" preference (docs/decisions/3301).
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { env } from "~/platform/env.server";
import { queueMail } from "~/platform/mail/outbox.server";
import { UserError } from "~/utils/user-error";
import { CONTACT_NOT_FOUND } from "./messages";
import { CONTACT_TOPIC_LABELS, type ContactInput, type ContactTopic } from "./schemas";

export class ContactError extends UserError {}

/** Stores a message for the admins and queues its e-mail to each of them, in one transaction. */
export async function sendContactMessage(input: ContactInput, userId: string | null) {
  return sequelize.transaction(async (transaction) => {
    const [row] = await sequelize.query<{ id: string }>(
      `INSERT INTO contact_messages (user_id, name, email, topic, body)
       VALUES (:userId, :name, :email, :topic, :body) RETURNING id::text AS id`,
      {
        replacements: {
          userId,
          name: input.name,
          email: input.email,
          topic: input.topic,
          body: input.message,
        },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    const admins = await sequelize.query<{ id: string }>(
      "SELECT id FROM users WHERE role = 'admin' ORDER BY created_at",
      { type: QueryTypes.SELECT, transaction },
    );
    const inbox = new URL("/admin/contact", env().APP_URL).toString();
    for (const admin of admins) {
      await queueMail(
        {
          userId: admin.id,
          topic: "messages",
          subject: `Contact: ${CONTACT_TOPIC_LABELS[input.topic]} from ${input.name}`,
          content: {
            paragraphs: [
              `${input.name} <${input.email}>${userId ? " (signed in)" : " (not signed in)"} wrote through the Contact page about “${CONTACT_TOPIC_LABELS[input.topic]}”:`,
              input.message,
              "Answer them by e-mail at the address above, then mark the message answered in the inbox.",
            ],
            action: { label: "Open the contact inbox", url: inbox },
          },
          dedupeKey: `contact:${row.id}:${admin.id}`,
        },
        transaction,
      );
    }
    return row.id;
  });
}

export type ContactMessageView = {
  id: string;
  name: string;
  email: string;
  topic: ContactTopic;
  topicLabel: string;
  body: string;
  signedIn: boolean;
  createdAt: string;
};

/** Unanswered messages, oldest first. */
export async function listOpenContactMessages(): Promise<ContactMessageView[]> {
  const rows = await sequelize.query<{
    id: string;
    name: string;
    email: string;
    topic: ContactTopic;
    body: string;
    user_id: string | null;
    created_at: Date;
  }>(
    `SELECT id::text AS id, name, email, topic, body, user_id, created_at
       FROM contact_messages WHERE answered_at IS NULL ORDER BY created_at, id LIMIT 200`,
    { type: QueryTypes.SELECT },
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    topic: row.topic,
    topicLabel: CONTACT_TOPIC_LABELS[row.topic],
    body: row.body,
    signedIn: row.user_id !== null,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

/** Marks a message answered, once; a second time (or an unknown id) is a 404. */
export async function markContactAnswered(adminId: string, messageId: string) {
  const [, count] = await sequelize.query(
    `UPDATE contact_messages SET answered_at = now(), answered_by = :adminId
      WHERE id = :messageId AND answered_at IS NULL`,
    { replacements: { adminId, messageId }, type: QueryTypes.UPDATE },
  );
  if (!count) throw new ContactError(CONTACT_NOT_FOUND, { status: 404 });
}
