// Messages between a buyer and the seller of a community listing, or between a buyer and the
// carrier that claimed their transport job (then seller_id is the carrier). Only the two of them
// read a thread; neither sees the other's e-mail address (the notice e-mail goes through the
// outbox). docs/decisions/2154-messages-to-a-seller.md, 3535.
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { env } from "~/platform/env.server";
import { queueMail } from "~/platform/mail/outbox.server";
import { notify } from "~/platform/notifications.server";
import { UserError } from "~/utils/user-error";
import {
  LISTING_NOT_AVAILABLE,
  ORDER_NOT_CLAIMED,
  ORDER_NOT_FOUND_FOR_MESSAGES,
  OWN_LISTING,
  THREAD_NOT_FOUND,
} from "./messages";

export class MessageError extends UserError {}

const ID = /^\d{1,18}$/;
const notFound = () => new MessageError(THREAD_NOT_FOUND, { status: 404 });

type ThreadRow = {
  id: string;
  listing_id: string | null;
  service_order_id: string | null;
  /** the listing's title, or the transport job's vehicle */
  listing_title: string;
  buyer_id: string;
  seller_id: string;
  buyer_name: string;
  seller_name: string;
};

// A service order's thread reads only while its carrier still holds the job.
const THREAD_SELECT = `SELECT t.id::text AS id, t.listing_id::text AS listing_id,
       t.service_order_id::text AS service_order_id,
       coalesce(l.title, so.vehicle_label) AS listing_title, t.buyer_id, t.seller_id,
       coalesce(nullif(trim(b.first_name), ''), 'Buyer') AS buyer_name,
       coalesce(nullif(trim(s.first_name), ''),
                CASE WHEN t.service_order_id IS NULL THEN 'Seller' ELSE 'Carrier' END) AS seller_name
  FROM message_threads t
  LEFT JOIN listings l ON l.id = t.listing_id
  LEFT JOIN service_orders so ON so.id = t.service_order_id AND so.claimed_by = t.seller_id
  JOIN users b ON b.id = t.buyer_id
  JOIN users s ON s.id = t.seller_id`;
const THREAD_LIVE = "(l.id IS NOT NULL OR so.id IS NOT NULL)";

/** The thread if `userId` is one of its two people; otherwise a 404 (no hint that it exists). */
async function threadFor(userId: string, threadId: string, transaction?: Transaction) {
  if (!ID.test(threadId)) throw notFound();
  const [thread] = await sequelize.query<ThreadRow>(
    `${THREAD_SELECT} WHERE t.id = :threadId AND :userId IN (t.buyer_id, t.seller_id)
       AND ${THREAD_LIVE}`,
    { replacements: { threadId, userId }, type: QueryTypes.SELECT, transaction },
  );
  if (!thread) throw notFound();
  return thread;
}

async function addMessage(
  thread: ThreadRow,
  senderId: string,
  body: string,
  transaction: Transaction,
) {
  const [message] = await sequelize.query<{ id: string }>(
    `INSERT INTO messages (thread_id, sender_id, body) VALUES (:threadId, :senderId, :body)
     RETURNING id::text AS id`,
    { replacements: { threadId: thread.id, senderId, body }, type: QueryTypes.SELECT, transaction },
  );
  await sequelize.query(
    "UPDATE message_threads SET last_message_at = now(), updated_at = now() WHERE id = :id",
    { replacements: { id: thread.id }, transaction },
  );
  const fromSeller = senderId === thread.seller_id;
  const recipient = fromSeller ? thread.buyer_id : thread.seller_id;
  const senderName = fromSeller ? thread.seller_name : thread.buyer_name;
  const path = `/messages/${thread.id}`;
  const title = `New message from ${senderName} about ${thread.listing_title}`.slice(0, 200);
  await notify(recipient, { kind: "message_received", title, body: "", link: path }, transaction);
  // The e-mail is combined: the pair is marked pending, and the notices job mails what came at
  // most once a quarter-hour (sendMessageNotices, docs/decisions/3009).
  await sequelize.query(
    `INSERT INTO message_notices (thread_id, recipient_id, pending_since)
     VALUES (:threadId, :recipient, now())
     ON CONFLICT (thread_id, recipient_id)
     DO UPDATE SET pending_since = coalesce(message_notices.pending_since, now())`,
    { replacements: { threadId: thread.id, recipient }, transaction },
  );
  return message.id;
}

/** A buyer writes to a listing's seller: their one thread for that listing, plus the message. */
export async function messageSeller(buyerId: string, listingId: string, body: string) {
  if (!ID.test(listingId)) throw new MessageError(LISTING_NOT_AVAILABLE, { status: 404 });
  return sequelize.transaction(async (transaction) => {
    const [listing] = await sequelize.query<{ user_id: string }>(
      "SELECT user_id FROM listings WHERE id = :listingId AND status = 'active'",
      { replacements: { listingId }, type: QueryTypes.SELECT, transaction },
    );
    if (!listing) throw new MessageError(LISTING_NOT_AVAILABLE, { status: 404 });
    if (listing.user_id === buyerId) throw new MessageError(OWN_LISTING, { status: 400 });
    const [{ id }] = await sequelize.query<{ id: string }>(
      `INSERT INTO message_threads (listing_id, buyer_id, seller_id)
       VALUES (:listingId, :buyerId, :sellerId)
       ON CONFLICT (listing_id, buyer_id) DO UPDATE SET updated_at = now()
       RETURNING id::text AS id`,
      {
        replacements: { listingId, buyerId, sellerId: listing.user_id },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    const thread = await threadFor(buyerId, id, transaction);
    await addMessage(thread, buyerId, body, transaction);
    return id;
  });
}

/**
 * The buyer of a claimed transport job or its carrier writes to the other: their one thread about
 * the job, plus the message. Anyone else gets a 404, as the job's page does; the buyer of a job
 * no carrier has claimed yet gets a 409 (there is no one to write to).
 */
export async function messageAboutOrder(userId: string, orderId: string, body: string) {
  if (!ID.test(orderId)) throw new MessageError(ORDER_NOT_FOUND_FOR_MESSAGES, { status: 404 });
  return sequelize.transaction(async (transaction) => {
    // FOR SHARE: the claim cannot change under the thread being opened
    const [order] = await sequelize.query<{
      requested_by: string | null;
      claimed_by: string | null;
    }>("SELECT requested_by, claimed_by FROM service_orders WHERE id = :orderId FOR SHARE", {
      replacements: { orderId },
      type: QueryTypes.SELECT,
      transaction,
    });
    const party =
      order && order.requested_by && [order.requested_by, order.claimed_by].includes(userId);
    if (!order || !party) throw new MessageError(ORDER_NOT_FOUND_FOR_MESSAGES, { status: 404 });
    if (!order.claimed_by) throw new MessageError(ORDER_NOT_CLAIMED, { status: 409 });
    const [{ id }] = await sequelize.query<{ id: string }>(
      `INSERT INTO message_threads (service_order_id, buyer_id, seller_id)
       VALUES (:orderId, :buyerId, :carrierId)
       ON CONFLICT (service_order_id) DO UPDATE SET updated_at = now()
       RETURNING id::text AS id`,
      {
        replacements: { orderId, buyerId: order.requested_by, carrierId: order.claimed_by },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    const thread = await threadFor(userId, id, transaction);
    await addMessage(thread, userId, body, transaction);
    return id;
  });
}

/** The thread about a transport job that `userId` is one of the two of, if one was started. */
export async function orderThreadId(userId: string, orderId: string) {
  if (!ID.test(orderId)) return null;
  const [thread] = await sequelize.query<{ id: string }>(
    `SELECT t.id::text AS id FROM message_threads t
       JOIN service_orders so ON so.id = t.service_order_id AND so.claimed_by = t.seller_id
      WHERE t.service_order_id = :orderId AND :userId IN (t.buyer_id, t.seller_id)`,
    { replacements: { orderId, userId }, type: QueryTypes.SELECT },
  );
  return thread?.id ?? null;
}

/** Either of the two replies in their thread. */
export async function replyInThread(userId: string, threadId: string, body: string) {
  return sequelize.transaction(async (transaction) => {
    const thread = await threadFor(userId, threadId, transaction);
    return addMessage(thread, userId, body, transaction);
  });
}

/** What the listing page's "Message the seller" form shows: the listing, if one may write. */
export async function listingToMessage(userId: string, listingId: string | null) {
  if (!listingId || !ID.test(listingId))
    throw new MessageError(LISTING_NOT_AVAILABLE, { status: 404 });
  const [listing] = await sequelize.query<{ id: string; title: string; user_id: string }>(
    "SELECT id::text AS id, title, user_id FROM listings WHERE id = :listingId AND status = 'active'",
    { replacements: { listingId }, type: QueryTypes.SELECT },
  );
  if (!listing) throw new MessageError(LISTING_NOT_AVAILABLE, { status: 404 });
  const [thread] = await sequelize.query<{ id: string }>(
    "SELECT id::text AS id FROM message_threads WHERE listing_id = :listingId AND buyer_id = :userId",
    { replacements: { listingId, userId }, type: QueryTypes.SELECT },
  );
  return {
    id: listing.id,
    title: listing.title,
    own: listing.user_id === userId,
    threadId: thread?.id ?? null,
  };
}

export type ThreadView = {
  id: string;
  listingId: string | null;
  serviceOrderId: string | null;
  listingTitle: string;
  role: "buyer" | "seller";
  /** what the other one is to this reader: "Buyer", "Seller" or "Carrier" */
  otherRole: string;
  otherName: string;
  messages: { id: string; mine: boolean; body: string; createdAt: string; reported: boolean }[];
};

export async function getThread(userId: string, threadId: string): Promise<ThreadView> {
  const thread = await threadFor(userId, threadId);
  const rows = await sequelize.query<{
    id: string;
    sender_id: string;
    body: string;
    created_at: Date;
    reported: boolean;
  }>(
    `SELECT m.id::text AS id, m.sender_id, m.body, m.created_at,
            EXISTS (SELECT 1 FROM message_reports r
                     WHERE r.message_id = m.id AND r.reporter_id = :userId) AS reported
       FROM messages m WHERE m.thread_id = :threadId ORDER BY m.id`,
    { replacements: { threadId: thread.id, userId }, type: QueryTypes.SELECT },
  );
  const seller = userId === thread.seller_id;
  return {
    id: thread.id,
    listingId: thread.listing_id,
    serviceOrderId: thread.service_order_id,
    listingTitle: thread.listing_title,
    role: seller ? "seller" : "buyer",
    otherRole: seller ? "Buyer" : thread.service_order_id ? "Carrier" : "Seller",
    otherName: seller ? thread.buyer_name : thread.seller_name,
    messages: rows.map((row) => ({
      id: row.id,
      mine: row.sender_id === userId,
      body: row.body,
      createdAt: row.created_at.toISOString(),
      reported: row.reported,
    })),
  };
}

export type ThreadSummary = {
  id: string;
  listingTitle: string;
  role: "buyer" | "seller";
  otherRole: string;
  otherName: string;
  lastMessage: string;
  lastMessageAt: string;
};

export async function listThreads(userId: string): Promise<ThreadSummary[]> {
  const rows = await sequelize.query<ThreadRow & { last_body: string; last_at: Date }>(
    `${THREAD_SELECT.replace(
      "SELECT ",
      `SELECT (SELECT m.body FROM messages m WHERE m.thread_id = t.id ORDER BY m.id DESC LIMIT 1)
                AS last_body, t.last_message_at AS last_at, `,
    )}
      WHERE (t.buyer_id = :userId OR t.seller_id = :userId) AND ${THREAD_LIVE}
      ORDER BY t.last_message_at DESC, t.id DESC LIMIT 100`,
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => {
    const seller = row.seller_id === userId;
    return {
      id: row.id,
      listingTitle: row.listing_title,
      role: seller ? "seller" : "buyer",
      otherRole: seller ? "Buyer" : row.service_order_id ? "Carrier" : "Seller",
      otherName: seller ? row.buyer_name : row.seller_name,
      lastMessage: (row.last_body ?? "").slice(0, 140),
      lastMessageAt: row.last_at.toISOString(),
    };
  });
}

/** One of the two reports a message the other wrote; reporting it again changes nothing. */
export async function reportMessage(
  userId: string,
  threadId: string,
  messageId: string,
  reason: string,
) {
  const thread = await threadFor(userId, threadId);
  const [message] = await sequelize.query<{ sender_id: string }>(
    "SELECT sender_id FROM messages WHERE id = :messageId AND thread_id = :threadId",
    { replacements: { messageId, threadId: thread.id }, type: QueryTypes.SELECT },
  );
  if (!message)
    throw new MessageError("That message is not in this conversation.", { status: 404 });
  if (message.sender_id === userId)
    throw new MessageError("You cannot report your own message.", { status: 400 });
  await sequelize.query(
    `INSERT INTO message_reports (message_id, reporter_id, reason)
     VALUES (:messageId, :userId, :reason) ON CONFLICT DO NOTHING`,
    { replacements: { messageId, userId, reason } },
  );
}

export type ReportView = {
  id: string;
  reason: string;
  reportedAt: string;
  reporterEmail: string;
  senderEmail: string;
  listingTitle: string;
  threadId: string;
  body: string;
  context: { sender: "buyer" | "seller"; body: string; reported: boolean }[];
};

/** Open reports for the admins, oldest first, each with the thread it came from. */
export async function listOpenReports(): Promise<ReportView[]> {
  const reports = await sequelize.query<{
    id: string;
    reason: string;
    created_at: Date;
    reporter_email: string;
    sender_email: string;
    listing_title: string;
    thread_id: string;
    message_id: string;
    body: string;
    seller_id: string;
  }>(
    `SELECT r.id::text AS id, r.reason, r.created_at, ru.email AS reporter_email,
            su.email AS sender_email, coalesce(l.title, so.vehicle_label) AS listing_title,
            t.id::text AS thread_id,
            m.id::text AS message_id, m.body, t.seller_id
       FROM message_reports r
       JOIN messages m ON m.id = r.message_id
       JOIN message_threads t ON t.id = m.thread_id
       LEFT JOIN listings l ON l.id = t.listing_id
       LEFT JOIN service_orders so ON so.id = t.service_order_id
       JOIN users ru ON ru.id = r.reporter_id
       JOIN users su ON su.id = m.sender_id
      WHERE r.resolved_at IS NULL
      ORDER BY r.created_at, r.id LIMIT 100`,
    { type: QueryTypes.SELECT },
  );
  const views: ReportView[] = [];
  for (const report of reports) {
    const context = await sequelize.query<{ id: string; sender_id: string; body: string }>(
      `SELECT id::text AS id, sender_id, body FROM messages
        WHERE thread_id = :threadId ORDER BY id DESC LIMIT 10`,
      { replacements: { threadId: report.thread_id }, type: QueryTypes.SELECT },
    );
    views.push({
      id: report.id,
      reason: report.reason,
      reportedAt: report.created_at.toISOString(),
      reporterEmail: report.reporter_email,
      senderEmail: report.sender_email,
      listingTitle: report.listing_title,
      threadId: report.thread_id,
      body: report.body,
      context: context.reverse().map((m) => ({
        sender: m.sender_id === report.seller_id ? "seller" : "buyer",
        body: m.body,
        reported: m.id === report.message_id,
      })),
    });
  }
  return views;
}

export async function resolveReport(adminId: string, reportId: string) {
  const [, result] = await sequelize.query(
    `UPDATE message_reports SET resolved_at = now(), resolved_by = :adminId
      WHERE id = :reportId AND resolved_at IS NULL`,
    { replacements: { adminId, reportId } },
  );
  const count = (result as { rowCount?: number } | number | undefined) ?? 0;
  if (!(typeof count === "number" ? count : count.rowCount))
    throw new MessageError("That report is already closed or does not exist.", { status: 404 });
}

/** One e-mail per thread and recipient at most this often (docs/decisions/3009). */
export const NOTICE_EVERY_MS = 15 * 60_000;
/** How many of the messages that came one notice quotes; the rest are counted. */
const NOTICE_QUOTES = 10;
const QUOTE_CHARS = 160;

type PendingNotice = {
  thread_id: string;
  recipient_id: string;
  last_message_id: string;
};

type CameMessage = { id: string; body: string; sender_name: string };

/** A message as one line of a notice: its first words, on one line. */
function quote(body: string) {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS - 1)}…` : line;
}

/**
 * The notices job's share: for each thread with messages not yet mailed to a recipient whose last
 * notice is at least NOTICE_EVERY_MS old, one e-mail listing what came since the last one. Rows
 * are claimed with FOR UPDATE SKIP LOCKED and the mail is queued in the same transaction as the
 * row's update, so each message is listed in one notice, by one machine.
 */
export async function sendMessageNotices(limit = 50): Promise<number> {
  return sequelize.transaction(async (transaction) => {
    const due = await sequelize.query<PendingNotice>(
      `SELECT thread_id::text, recipient_id, last_message_id::text FROM message_notices
        WHERE pending_since IS NOT NULL
          AND (last_sent_at IS NULL OR last_sent_at <= now() - :every * interval '1 millisecond')
        ORDER BY pending_since LIMIT :limit FOR UPDATE SKIP LOCKED`,
      { replacements: { every: NOTICE_EVERY_MS, limit }, type: QueryTypes.SELECT, transaction },
    );
    for (const notice of due) await sendNotice(notice, transaction);
    return due.length;
  });
}

async function sendNotice(notice: PendingNotice, transaction: Transaction) {
  const [thread] = await sequelize.query<ThreadRow>(
    `${THREAD_SELECT} WHERE t.id = :threadId AND ${THREAD_LIVE}`,
    {
      replacements: { threadId: notice.thread_id },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  const came = thread
    ? await sequelize.query<CameMessage>(
        `SELECT m.id::text AS id, m.body,
                coalesce(nullif(trim(u.first_name), ''),
                         CASE WHEN m.sender_id = :sellerId THEN 'Seller' ELSE 'Buyer' END)
                  AS sender_name
           FROM messages m JOIN users u ON u.id = m.sender_id
          WHERE m.thread_id = :threadId AND m.id > :after AND m.sender_id <> :recipient
          ORDER BY m.id`,
        {
          replacements: {
            threadId: notice.thread_id,
            after: notice.last_message_id,
            recipient: notice.recipient_id,
            sellerId: thread.seller_id,
          },
          type: QueryTypes.SELECT,
          transaction,
        },
      )
    : [];
  const newest = came.length ? came[came.length - 1].id : notice.last_message_id;
  await sequelize.query(
    `UPDATE message_notices
        SET pending_since = NULL, last_message_id = :newest,
            last_sent_at = CASE WHEN :mailed THEN now() ELSE last_sent_at END
      WHERE thread_id = :threadId AND recipient_id = :recipient`,
    {
      replacements: {
        newest,
        mailed: came.length > 0,
        threadId: notice.thread_id,
        recipient: notice.recipient_id,
      },
      transaction,
    },
  );
  if (!thread || came.length === 0) return;
  const senders = [...new Set(came.map((m) => m.sender_name))].join(" and ");
  const count = came.length === 1 ? "A new message" : `${came.length} new messages`;
  const subject = `${count} from ${senders} about ${thread.listing_title}`.slice(0, 200);
  const quoted = came.slice(-NOTICE_QUOTES).map((m) => `${m.sender_name}: “${quote(m.body)}”`);
  const earlier = came.length - quoted.length;
  await queueMail(
    {
      userId: notice.recipient_id,
      topic: "messages",
      subject,
      content: {
        paragraphs: [
          `${count} about “${thread.listing_title}”. Reply in BidYard: your e-mail address stays private.`,
          ...(earlier > 0
            ? [`(${earlier} earlier message${earlier === 1 ? "" : "s"} not shown)`]
            : []),
          ...quoted,
        ],
        action: {
          label: "Read and reply",
          url: `${new URL(env().APP_URL).origin}/messages/${thread.id}`,
        },
      },
      // one notice per thread, recipient and newest message listed: queued once
      dedupeKey: `message-notice:${notice.thread_id}:${notice.recipient_id}:${newest}`,
    },
    transaction,
  );
}
