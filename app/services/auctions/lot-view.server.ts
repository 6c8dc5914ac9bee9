// What the lot page shows of the lot as it moves (docs/decisions/2752): the lot, its bid history
// and the viewer's buying power, read in one snapshot, with the lot's newest event id so the page
// can tell which of two reads is newer. The page's loader and its refetch after each live event
// both read it here, so the price, the count, the history, the leader panel and "Available for
// bidding" can never come from different moments.
import { sql } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { buyingPower } from "~/services/auctions/buying-power.server";
import {
  LOT_DETAIL_SQL,
  toHistory,
  toLotDetail,
  type HistoryRow,
  type LotDetailRow,
} from "~/services/auctions/lots.server";
import type { LotLiveState } from "~/services/auctions/live";
import type { LotDetail } from "~/services/auctions/types";
import { FEES_VERSION_SQL } from "~/services/purchases/schedules.server";

export type LotView = {
  lot: LotDetail;
  state: LotLiveState;
  /** the stored fees' version in the same read (FEES_VERSION_SQL, record 3543) */
  feesVersion: string;
};

/**
 * The lot and its live state for `viewerId`, in one REPEATABLE READ snapshot; null when there is
 * no such lot. It only reads: a lot past its end shows as closing until its close job has run
 * (docs/decisions/3562).
 */
export async function lotView(lotId: string, viewerId: string): Promise<LotView | null> {
  if (!/^\d{1,18}$/.test(lotId)) return null;
  // a lot past its end is shown as closing until its close job has run: a page never writes
  // (record 3562)
  return readView(lotId, viewerId);
}

/**
 * The whole view in one statement (docs/decisions/3570): the lot, the viewer's row with the
 * lot's newest event, the fees' version and what the viewer's deposit holds, and the history as
 * a JSON list. One statement reads from one snapshot, as the REPEATABLE READ transaction of three
 * reads did (record 2752), in one round trip instead of five.
 */
async function readView(lotId: string, viewerId: string): Promise<LotView | null> {
  const at = now();
  const [row] = await sql<ViewRow>(VIEW_SQL, [lotId, viewerId, at], { prepared: true });
  if (!row) return null;
  const {
    viewer_verified: verified,
    viewer_deposit: deposit,
    event_id: eventId,
    fees_version: feesVersion,
    held,
    history: historyRows,
    ...lotRow
  } = row;
  const lot = toLotDetail(lotRow, viewerId, at);
  const history = toHistory(historyRows, lotId, viewerId);
  const bidder = await buyingPower({ id: viewerId, verified, deposit }, { held });
  return {
    lot,
    feesVersion,
    state: {
      eventId,
      lot: {
        currentBid: lot.currentBid,
        bidCount: lot.bidCount,
        startsAt: lot.startsAt,
        endsAt: lot.endsAt,
        status: lot.status,
        badge: lot.badge,
        leading: lot.leading,
        myMax: lot.myMax,
      },
      history,
      bidder,
      serverTime: at.toISOString(),
    },
  };
}

type ViewRow = LotDetailRow & {
  viewer_verified: boolean;
  viewer_deposit: string;
  event_id: string;
  fees_version: string;
  held: string;
  /** the newest 25 bids as JSON: ids and amounts as text, as the history's own read gives them */
  history: HistoryRow[];
};

/**
 * $1 the lot, $2 the viewer, $3 the app's clock (what the deposit holds at it, as every other
 * screen and the bid check count it, record 3510). No row without the lot; the viewer is the
 * signed-in user, so their row is there. The history leaves out a leader's raise of their own
 * maximum, as every history does (record 2702).
 */
const VIEW_SQL = `SELECT d.*, u.verified AS viewer_verified, u.deposit AS viewer_deposit,
         (SELECT coalesce(max(e.id), 0)::text FROM lot_events e WHERE e.lot_id = d.id)
           AS event_id,
         ${FEES_VERSION_SQL} AS fees_version,
         (SELECT x.total::numeric(14, 2)::text FROM deposit_exposure($2, NULL, $3) x) AS held,
         (SELECT coalesce(json_agg(json_build_object('id', b.id::text, 'user_id', b.user_id,
                    'amount', b.amount::text, 'automatic', b.automatic,
                    'created_at', b.created_at) ORDER BY b.id DESC), '[]')
            FROM (SELECT id, user_id, amount, automatic, created_at FROM bids
                   WHERE lot_id = d.id AND NOT max_raise ORDER BY id DESC LIMIT 25) b) AS history
    FROM (${LOT_DETAIL_SQL}) d JOIN users u ON u.id = $2`;
