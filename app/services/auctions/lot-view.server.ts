// What the lot page shows of the lot as it moves (docs/decisions/2752): the lot, its bid history
// and the viewer's buying power, read in one snapshot, with the lot's newest event id so the page
// can tell which of two reads is newer. The page's loader and its refetch after each live event
// both read it here, so the price, the count, the history, the leader panel and "Available for
// bidding" can never come from different moments.
import { snapshot } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { buyingPower } from "~/services/auctions/buying-power.server";
import {
  HISTORY_SQL,
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
 * Every read of the view in one snapshot, each one statement of its own on one connection: the
 * lot, the viewer's row with the lot's newest event, the fees' version and what the viewer's
 * deposit holds, and the history (record 3543).
 */
function readView(lotId: string, viewerId: string): Promise<LotView | null> {
  return snapshot(async (read) => {
    const at = now();
    const [row] = await read<LotDetailRow>(LOT_DETAIL_SQL, [lotId, viewerId]);
    if (!row) return null;
    const lot = toLotDetail(row, viewerId, at);
    const [{ eventId, feesVersion, held, ...viewer }] = await read<{
      id: string;
      verified: boolean;
      deposit: string;
      eventId: string;
      feesVersion: string;
      held: string;
    }>(VIEWER_SQL, [viewerId, lotId, at]);
    const history = toHistory(await read<HistoryRow>(HISTORY_SQL, [lotId, 25]), lotId, viewerId);
    const bidder = await buyingPower(viewer, { held });
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
  });
}

/**
 * The viewer ($1) as the bid form needs them, beside the lot's ($2) newest event; what the deposit
 * holds at the app's clock ($3), as every other screen and the bid check count it (record 3510).
 */
const VIEWER_SQL = `SELECT id, verified, deposit,
         (SELECT coalesce(max(id), 0)::text FROM lot_events WHERE lot_id = $2) AS "eventId",
         ${FEES_VERSION_SQL} AS "feesVersion",
         (SELECT total::numeric(14, 2)::text FROM deposit_exposure($1, NULL, $3)) AS held
    FROM users WHERE id = $1`;
