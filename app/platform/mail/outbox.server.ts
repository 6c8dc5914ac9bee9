// The mail outbox: callers queue a message in their own transaction; sendDueMail sends what is
// due. Rows are claimed with FOR UPDATE SKIP LOCKED under a token of that claim; the claim is
// renewed before each send and a row is settled only under its own token, so a row another worker
// took over is never sent by both. Sends that fail for a reason not about the message itself are
// retried with backoff (docs/decisions/2151-mail-outbox.md).
import { randomUUID } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { env } from "~/platform/env.server";
import { composeMail, type MailContent } from "./compose.server";
import type { MailTopic } from "./topics";
import { mailTransport, type MailTransport } from "./transport.server";
import { unsubscribeUrl } from "./unsubscribe.server";

/**
 * Tries before a message is given up as failed. The waits between them (retryDelayMs) are 30 s,
 * 1, 2, 4, 8, 16, 32, 64 and 128 min (about 4 h 15 min in all), then eleven of 4 h: the 21st and
 * last try comes about 48 h 15 min after the first, so an SMTP outage of up to two days loses
 * nothing.
 */
export const MAX_ATTEMPTS = 21;
/**
 * How long a claim holds a row before another worker may take it again. It is renewed just
 * before each send, and the transport's timeouts end a send within about 50 s, so a row being
 * sent is not up for taking.
 */
export const CLAIM_MS = 2 * 60_000;
/** Rows one tick claims: few, so a slow server holds few rows back from other workers. */
const CLAIM_BATCH = 20;
const FIRST_RETRY_MS = 30_000;
/**
 * Topics whose messages to one person go out in the order they were queued (record 3534): a
 * transport job's "claimed" before its "delivered", even when the first waits for a retry.
 */
const IN_ORDER_TOPICS: readonly MailTopic[] = ["transport"];
const LONGEST_RETRY_MS = 4 * 60 * 60_000;

/** The wait before try number `attempts + 1`: 30 s, 1 min, 2 min, … capped at 4 h. */
export function retryDelayMs(attempts: number) {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

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
export async function queueMail(mail: QueuedMail, transaction?: Transaction) {
  const origin = new URL(env().APP_URL).hostname || "bidyard.local";
  const { text, html } = composeMail(
    mail.content,
    mail.topic,
    unsubscribeUrl(mail.userId, mail.topic),
  );
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO mail_outbox (user_id, to_address, topic, subject, text_body, html_body,
                              dedupe_key, message_id, next_attempt_at, attachments)
     SELECT u.id, u.email, :topic, :subject, :text, :html, :dedupeKey, :messageId, :at,
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
        at: now(),
        attachments: mail.attachments?.length ? JSON.stringify(mail.attachments) : null,
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
  attachments: MailAttachment[] | null;
};

/**
 * Takes up to `limit` due rows for this worker under `token`: pending and due, or claimed by a
 * worker whose claim ran out.
 */
async function claimDue(limit: number, at: Date, token: string) {
  return sequelize.query<OutboxRow>(
    `UPDATE mail_outbox o
        SET status = 'sending', attempts = o.attempts + 1, claim_token = :token,
            claimed_until = :claimedUntil, updated_at = now()
      WHERE o.id IN (
        SELECT id FROM mail_outbox
         WHERE ((status = 'pending' AND next_attempt_at <= :at)
                OR (status = 'sending' AND claimed_until < :at))
           -- an in-order topic waits for an earlier message of it to the same person that is
           -- waiting for a retry or being sent by another worker
           AND NOT (topic IN (:inOrder) AND EXISTS (
                 SELECT 1 FROM mail_outbox e
                  WHERE e.user_id = mail_outbox.user_id AND e.topic = mail_outbox.topic
                    AND e.id < mail_outbox.id
                    AND ((e.status = 'pending' AND e.next_attempt_at > :at)
                         OR (e.status = 'sending' AND e.claimed_until >= :at))))
         ORDER BY id
         LIMIT :limit
         FOR UPDATE SKIP LOCKED)
      RETURNING o.id, o.user_id, o.to_address, o.topic, o.subject, o.text_body, o.html_body,
                o.message_id, o.attempts, o.attachments`,
    {
      replacements: {
        at,
        limit,
        token,
        claimedUntil: new Date(at.getTime() + CLAIM_MS),
        inOrder: IN_ORDER_TOPICS,
      },
      type: QueryTypes.SELECT,
    },
  );
}

/** Gives a claimed row back untried (its claim's attempt is not counted). */
async function releaseClaim(id: string, token: string) {
  await sequelize.query(
    `UPDATE mail_outbox SET status = 'pending', attempts = attempts - 1, claimed_until = NULL,
            claim_token = NULL, updated_at = now()
      WHERE id = :id AND status = 'sending' AND claim_token = :token`,
    { replacements: { id, token } },
  );
}

/**
 * Renews this worker's claim on a row just before sending it. False when the claim ran out
 * (another worker may be taking the row now) or another worker already took it over: the row is
 * then left alone, and whoever claims it sends it.
 */
async function renewClaim(id: string, token: string) {
  const at = now();
  const rows = await sequelize.query<{ id: string }>(
    `UPDATE mail_outbox SET claimed_until = :claimedUntil, updated_at = now()
      WHERE id = :id AND status = 'sending' AND claim_token = :token AND claimed_until >= :at
      RETURNING id`,
    {
      replacements: { id, token, at, claimedUntil: new Date(at.getTime() + CLAIM_MS) },
      type: QueryTypes.SELECT,
    },
  );
  return rows.length > 0;
}

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

export type SendReport = { sent: number; retrying: number; failed: number };

/**
 * Sends what is due, one batch. Without a transport (no SMTP_URL) mail waits in the outbox.
 * Safe to run on many machines at once: a row is sent only under a claim renewed just before,
 * and settled only under the claim that sent it.
 */
export async function sendDueMail(
  options: { limit?: number; transport?: MailTransport | null } = {},
): Promise<SendReport> {
  const transport = options.transport === undefined ? mailTransport() : options.transport;
  const report: SendReport = { sent: 0, retrying: 0, failed: 0 };
  if (!transport) return report;
  const token = randomUUID();
  // RETURNING does not keep the subquery's order: sent oldest first (record 3534)
  const rows = (await claimDue(options.limit ?? CLAIM_BATCH, now(), token)).sort((a, b) =>
    BigInt(a.id) < BigInt(b.id) ? -1 : 1,
  );
  // in-order topics whose earlier message failed in this batch: the later ones wait for it
  const held = new Set<string>();
  for (const row of rows) {
    const orderKey = IN_ORDER_TOPICS.includes(row.topic) ? `${row.user_id}:${row.topic}` : null;
    if (orderKey && held.has(orderKey)) {
      await releaseClaim(row.id, token);
      continue;
    }
    // An earlier send of this batch may have been slow enough for the claim to run out.
    if (!(await renewClaim(row.id, token))) continue;
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
      await sequelize.query(
        `UPDATE mail_outbox SET status = 'sent', sent_at = :at, claimed_until = NULL,
                claim_token = NULL, last_error = NULL, updated_at = now()
          WHERE id = :id AND status = 'sending' AND claim_token = :token`,
        { replacements: { id: row.id, token, at: now() } },
      );
      report.sent += 1;
    } catch (error) {
      const giveUp = isPermanent(error) || row.attempts >= MAX_ATTEMPTS;
      // Only under our own claim: a row another worker took over is that worker's to settle.
      await sequelize.query(
        `UPDATE mail_outbox SET status = :status, claimed_until = NULL, claim_token = NULL,
                last_error = :message, next_attempt_at = :next, updated_at = now()
          WHERE id = :id AND status = 'sending' AND claim_token = :token`,
        {
          replacements: {
            id: row.id,
            token,
            status: giveUp ? "failed" : "pending",
            message: String((error as Error)?.message ?? error).slice(0, 500),
            next: new Date(now().getTime() + retryDelayMs(row.attempts)),
          },
        },
      );
      if (giveUp) report.failed += 1;
      else {
        report.retrying += 1;
        if (orderKey) held.add(orderKey);
      }
    }
  }
  return report;
}
