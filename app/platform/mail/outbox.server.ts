// The mail outbox: callers queue a message in their own transaction; sendDueMail sends what is
// due, claiming rows with FOR UPDATE SKIP LOCKED so two workers never send the same row, and
// retries with backoff when the SMTP server is away (docs/decisions/2151-mail-outbox.md).
import { randomUUID } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { env } from "~/platform/env.server";
import { composeMail, type MailContent } from "./compose.server";
import type { MailTopic } from "./topics";
import { mailTransport, type MailTransport } from "./transport.server";
import { unsubscribeUrl } from "./unsubscribe.server";

/** Tries before a message is given up as failed (about a day and a half with the backoff). */
export const MAX_ATTEMPTS = 12;
/** How long a claimed row is ours before another worker may take it again. */
export const CLAIM_MS = 2 * 60_000;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 4 * 60 * 60_000;

/** The wait before try number `attempts + 1`: 30 s, 1 min, 2 min, … capped at 4 h. */
export function retryDelayMs(attempts: number) {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

export type QueuedMail = {
  userId: string;
  topic: MailTopic;
  subject: string;
  content: MailContent;
  /** Queue at most one message per key (an alert for one match, say). */
  dedupeKey?: string;
};

/**
 * Queues an e-mail to a user (their address is read here, never passed around), unless they
 * unsubscribed from its topic. Returns the outbox id, or null when nothing was queued.
 */
export async function queueMail(mail: QueuedMail, transaction?: Transaction) {
  const origin = new URL(env().APP_URL).hostname || "bidyard.local";
  const { text, html } = composeMail(
    mail.content,
    mail.topic,
    unsubscribeUrl(mail.userId, mail.topic),
  );
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO mail_outbox (user_id, to_address, topic, subject, text_body, html_body,
                              dedupe_key, message_id, next_attempt_at)
     SELECT u.id, u.email, :topic, :subject, :text, :html, :dedupeKey, :messageId, :at
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
        at: now(),
      },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return rows[0] ? String(rows[0].id) : null;
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
};

/** Takes up to `limit` due rows for this worker: pending and due, or claimed and abandoned. */
async function claimDue(limit: number, at: Date) {
  return sequelize.query<OutboxRow>(
    `UPDATE mail_outbox o
        SET status = 'sending', attempts = o.attempts + 1,
            claimed_until = :claimedUntil, updated_at = now()
      WHERE o.id IN (
        SELECT id FROM mail_outbox
         WHERE (status = 'pending' AND next_attempt_at <= :at)
            OR (status = 'sending' AND claimed_until < :at)
         ORDER BY id
         LIMIT :limit
         FOR UPDATE SKIP LOCKED)
      RETURNING o.id, o.user_id, o.to_address, o.topic, o.subject, o.text_body, o.html_body,
                o.message_id, o.attempts`,
    {
      replacements: { at, limit, claimedUntil: new Date(at.getTime() + CLAIM_MS) },
      type: QueryTypes.SELECT,
    },
  );
}

function isPermanent(error: unknown) {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

export type SendReport = { sent: number; retrying: number; failed: number };

/**
 * Sends what is due, one batch. Without a transport (no SMTP_URL) mail waits in the outbox.
 * Safe to run on many machines at once.
 */
export async function sendDueMail(
  options: { limit?: number; transport?: MailTransport | null } = {},
): Promise<SendReport> {
  const transport = options.transport === undefined ? mailTransport() : options.transport;
  const report: SendReport = { sent: 0, retrying: 0, failed: 0 };
  if (!transport) return report;
  const at = now();
  const rows = await claimDue(options.limit ?? 50, at);
  for (const row of rows) {
    try {
      const unsubscribe = row.user_id ? unsubscribeUrl(row.user_id, row.topic) : null;
      await transport.sendMail({
        from: env().MAIL_FROM,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        messageId: row.message_id,
        headers: unsubscribe
          ? {
              "List-Unsubscribe": `<${unsubscribe}>`,
              "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            }
          : {},
      });
      await sequelize.query(
        `UPDATE mail_outbox SET status = 'sent', sent_at = :at, claimed_until = NULL,
                last_error = NULL, updated_at = now()
          WHERE id = :id AND status = 'sending'`,
        { replacements: { id: row.id, at: now() } },
      );
      report.sent += 1;
    } catch (error) {
      const giveUp = isPermanent(error) || row.attempts >= MAX_ATTEMPTS;
      await sequelize.query(
        `UPDATE mail_outbox SET status = :status, claimed_until = NULL, last_error = :message,
                next_attempt_at = :next, updated_at = now()
          WHERE id = :id AND status = 'sending'`,
        {
          replacements: {
            id: row.id,
            status: giveUp ? "failed" : "pending",
            message: String((error as Error)?.message ?? error).slice(0, 500),
            next: new Date(now().getTime() + retryDelayMs(row.attempts)),
          },
        },
      );
      if (giveUp) report.failed += 1;
      else report.retrying += 1;
    }
  }
  return report;
}
