// Outbid e-mails (docs/decisions/2754). place_bid writes the "You were outbid" notification in
// the bid's own statement (one database call per bid, records 1101 and 1903); the notices job
// relays those notifications to e-mail. Each notification is looked at once: it is marked in
// outbid_mail_marks in the same commit as its queued mail, so concurrent ticks on several
// machines cannot both take it. A notice whose reader leads the lot again, or whose lot has
// ended, is marked and not mailed; of several for one person and lot in a batch, the newest is
// mailed. Notices older than an hour are left alone: an outbid e-mail that late helps nobody.
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { env } from "~/platform/env.server";
import { queueMail } from "~/platform/mail/outbox.server";
import { formatInstant } from "~/utils/time";
import { minimumBidCents, minimumBidLabel } from "~/services/auctions/rules";
import { formatUsd } from "~/utils/money";

const WINDOW_MS = 60 * 60_000;
/** Marks are kept a while past the window, then pruned. */
const KEEP_MARKS_MS = 2 * WINDOW_MS;

type Notice = {
  id: string;
  user_id: string;
  time_zone: string;
  lot_id: string;
  lot_number: string;
  auction_house: string;
  title: string;
  current_bid: string;
  ends_at: Date;
  still_outbid: boolean;
};

/** Relays up to `limit` new outbid notifications to e-mail; answers how many mails it queued. */
export async function mailOutbidNotices(options: { limit?: number } = {}) {
  const at = now();
  return sequelize.transaction(async (transaction) => {
    const notices = await sequelize.query<Notice>(
      `WITH todo AS (
         SELECT n.id FROM notifications n
          WHERE n.kind = 'outbid' AND n.created_at > :since
            AND NOT EXISTS (SELECT 1 FROM outbid_mail_marks m WHERE m.notification_id = n.id)
          ORDER BY n.created_at, n.id
          LIMIT :limit),
       marked AS (
         INSERT INTO outbid_mail_marks (notification_id) SELECT id FROM todo
         ON CONFLICT DO NOTHING RETURNING notification_id)
       SELECT n.id::text AS id, n.user_id, u.time_zone, l.id::text AS lot_id, l.lot_number,
              l.auction_house, concat_ws(' ', l.year, l.make, l.model) AS title,
              l.current_bid::text AS current_bid, l.ends_at,
              (l.status = 'active' AND l.ends_at > :at
                 AND l.high_bidder_id IS DISTINCT FROM n.user_id) AS still_outbid
         FROM marked m
         JOIN notifications n ON n.id = m.notification_id
         JOIN users u ON u.id = n.user_id
         JOIN lots l ON l.id = substring(n.link FROM '^/auctions/([0-9]{1,18})$')::bigint
        ORDER BY n.id DESC`,
      {
        replacements: {
          since: new Date(at.getTime() - WINDOW_MS),
          at,
          limit: options.limit ?? 200,
        },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    const mailed = new Set<string>();
    let queued = 0;
    for (const notice of notices) {
      const key = `${notice.user_id}:${notice.lot_id}`;
      if (!notice.still_outbid || mailed.has(key)) continue;
      mailed.add(key);
      const house = notice.auction_house === "iaai" ? "IAAI" : "Copart";
      const id = await queueMail(
        {
          userId: notice.user_id,
          topic: "outbid",
          subject: `Outbid: ${notice.title}, now ${formatUsd(notice.current_bid)}`,
          content: {
            paragraphs: [
              `Someone bid more than your maximum on the ${notice.title} (${house} lot ${notice.lot_number}). The current bid is ${formatUsd(notice.current_bid)}.`,
              `Bidding ends ${formatInstant(notice.ends_at, notice.time_zone)}. To lead again, bid at least ${minimumBidLabel(minimumBidCents(notice.current_bid))}.`,
            ],
            action: {
              label: "Bid again",
              url: `${new URL(env().APP_URL).origin}/auctions/${notice.lot_id}`,
            },
          },
          dedupeKey: `outbid:${notice.id}`,
        },
        transaction,
      );
      if (id) queued += 1;
    }
    return queued;
  });
}

/** Drops the marks of notices older than the relay ever looks at (the prunes job). */
export async function pruneOutbidMarks() {
  await sequelize.query("DELETE FROM outbid_mail_marks WHERE created_at < :before", {
    replacements: { before: new Date(now().getTime() - KEEP_MARKS_MS) },
  });
}
