// The mail outbox: callers queue a message in their own transaction, which also queues the job
// that sends it (docs/decisions/3561), so a rolled-back write sends nothing and a committed one
// wakes a worker at once. The row keeps the message and its Message-ID, made once when queued:
// a send the worker retries (its process died after the server took the message, say) carries
// the same Message-ID, which mail servers and programs treat as the same message. Sends that fail
// for a reason not about the message itself are retried by the queue with its backoff.
import { randomUUID } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { env } from "~/platform/env.server";
import { addJob } from "~/platform/jobs/queue.server";
import { composeMail, type MailContent } from "./compose.server";
import { MONEY_MAIL_TOPICS, type MailTopic } from "./topics";
import { mailTransport, type MailTransport } from "./transport.server";
import { unsubscribeUrl } from "./unsubscribe.server";

/**
 * Tries before a message is given up as failed. The queue waits e^n seconds after try n (3 s,
 * 7 s, 20 s, … about 6 h from the tenth on): the 21st and last try comes about three days after
 * the first, so an SMTP outage of two days loses nothing.
 */
export const MAX_ATTEMPTS = 21;
/**
 * Topics whose messages to one person go out in the order they were queued (record 3534): a
 * transport job's "claimed" before its "delivered", even when the first waits for a retry.
 */
const IN_ORDER_TOPICS: readonly MailTopic[] = ["transport"];

/** A file sent with a message (the won e-mail's invoice): text content, kept in the row. */
export type MailAttachment = { filename: string; contentType: string; content: string };

export type QueuedMail = {
  userId: string;
  topic: MailTopic;
  subject: string;
  content: MailContent;
  /** Queue at most one message per key (an alert for one match, say). */
  dedupeKey?: string;
  attachments?: MailAttachment[];
};

/**
 * Queues an e-mail to a user (their address is read here, never passed around), unless they
 * unsubscribed from its topic. Returns the outbox id, or null when nothing was queued.
 */
export async function queueMail(
  mail: QueuedMail,
  transaction?: Transaction,
): Promise<string | null> {
  if (!transaction) return sequelize.transaction((own) => queueMail(mail, own));
  const origin = new URL(env().APP_URL).hostname || "bidyard.local";
  const { text, html } = composeMail(
    mail.content,
    mail.topic,
    unsubscribeUrl(mail.userId, mail.topic),
  );
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO mail_outbox (user_id, to_address, topic, subject, text_body, html_body,
                              dedupe_key, message_id, attachments)
     SELECT u.id, u.email, :topic, :subject, :text, :html, :dedupeKey, :messageId,
            CAST(:attachments AS jsonb)
       FROM users u
      WHERE u.id = :userId AND u.email IS NOT NULL AND u.email <> ''
        AND NOT EXISTS (SELECT 1 FROM mail_unsubscribes s
                         WHERE s.user_id = u.id AND s.topic = :topic)
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING id`,
    {
      replacements: {
        userId: mail.userId,
        topic: mail.topic,
        subject: mail.subject.slice(0, 200),
        text,
        html,
        dedupeKey: mail.dedupeKey ?? null,
        messageId: `<${randomUUID()}@${origin}>`,
        attachments: mail.attachments?.length ? JSON.stringify(mail.attachments) : null,
      },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  if (!rows[0]) return null;
  const id = String(rows[0].id);
  await queueSend(id, mail.topic, { transaction });
  return id;
}

/** The message's send job: one per message, keyed by it (adding it again moves it). */
function queueSend(
  id: string,
  topic: string,
  options: { transaction?: Transaction; runAt?: Date },
) {
  return addJob(
    "send_mail",
    { id },
    {
      ...options,
      jobKey: `send_mail:${id}`,
      maxAttempts: MAX_ATTEMPTS,
      // mail about money and the buyer's lots goes before a burst of alerts (record 3561)
      priority: (MONEY_MAIL_TOPICS as readonly string[]).includes(topic) ? -5 : 0,
    },
  );
}

/** How long a message held back for an earlier one waits before it looks again on its own. */
const IN_ORDER_RECHECK_MS = 60_000;

/**
 * After a message of an in-order topic is sent or given up, the next one held back behind it is
 * sent at once (record 3534) rather than at its own next look.
 */
async function wakeNextInOrder(row: { id: string; user_id: string | null; topic: string }) {
  if (!row.user_id || !IN_ORDER_TOPICS.includes(row.topic as MailTopic)) return;
  const [next] = await sequelize.query<{ id: string }>(
    `SELECT id::text AS id FROM mail_outbox
      WHERE user_id = :userId AND topic = :topic AND id > :id AND status = 'pending'
      ORDER BY id LIMIT 1`,
    {
      replacements: { userId: row.user_id, topic: row.topic, id: row.id },
      type: QueryTypes.SELECT,
    },
  );
  if (next) await queueSend(next.id, row.topic, { runAt: now() });
}

type OutboxRow = {
  id: string;
  user_id: string | null;
  to_address: string;
  topic: MailTopic;
  subject: string;
  text_body: string;
  html_body: string;
  message_id: string;
  attempts: number;
  attachments: MailAttachment[] | null;
};

/** The codes nodemailer gives a server's answer about this message: its envelope or its data. */
const MESSAGE_ERRORS = new Set(["EENVELOPE", "EMESSAGE"]);

/**
 * True when the server refused this very message for good: a 5xx reply to one of its recipients
 * (RCPT TO) or to its content (DATA). Trying again would get the same answer. Everything else is
 * retried: a refused login, a 5xx greeting, a timeout or a dropped connection says nothing about
 * the message and would fail every queued row alike; a refused sender (MAIL FROM) is our own
 * setting, the same for every message; and 503 (bad sequence of commands) is the session's state,
 * not a refusal (RFC 5321).
 */
function isPermanent(error: unknown) {
  const { code, command, responseCode } = (error ?? {}) as {
    code?: unknown;
    command?: unknown;
    responseCode?: unknown;
  };
  return (
    typeof code === "string" &&
    MESSAGE_ERRORS.has(code) &&
    command !== "MAIL FROM" &&
    typeof responseCode === "number" &&
    responseCode >= 500 &&
    responseCode < 600 &&
    responseCode !== 503
  );
}

export type SendResult = "sent" | "already sent" | "failed" | "nothing to send" | "waiting";

/** What the queue's retry sees: the server, or the way to it, is not taking mail now. */
export class MailRetryLater extends Error {}

/**
 * Sends one queued message (the send_mail job). A message already sent is not sent again (a job
 * that ran twice); one the server refused for good, or whose last try failed, is marked failed.
 * Any other failure throws, and the queue tries again later. No transaction is held while the
 * server is talking.
 */
export async function sendQueuedMail(
  id: string,
  options: { attempt: number; maxAttempts: number; transport?: MailTransport | null },
): Promise<SendResult> {
  const transport = options.transport === undefined ? mailTransport() : options.transport;
  const [row] = await sequelize.query<OutboxRow & { status: string }>(
    `SELECT id, user_id, to_address, topic, subject, text_body, html_body, message_id,
            attempts, attachments, status
       FROM mail_outbox WHERE id = :id`,
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  if (!row || row.status === "failed" || row.status === "cancelled") return "nothing to send";
  if (row.status === "sent") return "already sent";
  // Without a transport (no SMTP_URL) mail waits: the job is tried again later.
  if (!transport) throw new MailRetryLater("no SMTP_URL: mail waits in the outbox");
  // an in-order topic waits while an earlier message of it to the same person is not sent yet,
  // even when that one waits for a retry (record 3534)
  if (row.user_id && IN_ORDER_TOPICS.includes(row.topic)) {
    const [earlier] = await sequelize.query<{ id: string }>(
      `SELECT id FROM mail_outbox
        WHERE user_id = :userId AND topic = :topic AND id < :id
          AND status IN ('pending', 'sending')
        LIMIT 1`,
      { replacements: { userId: row.user_id, topic: row.topic, id }, type: QueryTypes.SELECT },
    );
    // held back, not failed: no try is counted and nothing is logged as an error; the earlier
    // message wakes this one when it is done (wakeNextInOrder), or it looks again in a minute
    if (earlier) {
      await queueSend(id, row.topic, { runAt: new Date(now().getTime() + IN_ORDER_RECHECK_MS) });
      return "waiting";
    }
  }
  await sequelize.query(
    `UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, updated_at = now()
      WHERE id = :id AND status IN ('pending', 'sending')`,
    { replacements: { id } },
  );
  try {
    const unsubscribe = row.user_id ? unsubscribeUrl(row.user_id, row.topic) : null;
    await transport.sendMail({
      from: env().MAIL_FROM,
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      messageId: row.message_id,
      ...(row.attachments?.length
        ? {
            attachments: row.attachments.map((a) => ({
              filename: a.filename,
              contentType: a.contentType,
              content: a.content,
            })),
          }
        : {}),
      headers: unsubscribe
        ? {
            "List-Unsubscribe": `<${unsubscribe}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          }
        : {},
    });
  } catch (error) {
    const giveUp = isPermanent(error) || options.attempt >= options.maxAttempts;
    await sequelize.query(
      `UPDATE mail_outbox SET status = :status, last_error = :message, updated_at = now()
        WHERE id = :id AND status = 'sending'`,
      {
        replacements: {
          id,
          status: giveUp ? "failed" : "pending",
          message: String((error as Error)?.message ?? error).slice(0, 500),
        },
      },
    );
    if (giveUp) {
      await wakeNextInOrder(row);
      return "failed";
    }
    throw error;
  }
  await sequelize.query(
    `UPDATE mail_outbox SET status = 'sent', sent_at = :at, last_error = NULL,
            updated_at = now()
      WHERE id = :id AND status IN ('pending', 'sending')`,
    { replacements: { id, at: now() } },
  );
  await wakeNextInOrder(row);
  return "sent";
}
