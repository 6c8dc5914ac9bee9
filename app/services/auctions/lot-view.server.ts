// What the lot page shows of the lot as it moves (docs/decisions/2752): the lot, its bid history
// and the viewer's buying power, read in one snapshot, with the lot's newest event id so the page
// can tell which of two reads is newer. The page's loader and its refetch after each live event
// both read it here, so the price, the count, the history, the leader panel and "Available for
// bidding" can never come from different moments.
import { QueryTypes, Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { buyingPower } from "~/services/auctions/buying-power.server";
import { bidHistory, getLot } from "~/services/auctions/lots.server";
import type { LotLiveState } from "~/services/auctions/live";
import type { LotDetail } from "~/services/auctions/types";

export type LotView = {
  lot: LotDetail;
  state: LotLiveState;
};

/**
 * The lot and its live state for `viewerId`, in one REPEATABLE READ snapshot; null when there is
 * no such lot. It only reads: a lot past its end shows as closing until its close job has run
 * (docs/decisions/3562).
 */
export async function lotView(lotId: string, viewerId: string): Promise<LotView | null> {
  if (!/^\d{1,18}$/.test(lotId)) return null;
  return sequelize.transaction(
    { isolationLevel: Transaction.ISOLATION_LEVELS.REPEATABLE_READ },
    async (transaction) => {
      const lot = await getLot(lotId, viewerId, transaction);
      if (!lot) return null;
      // one after another: a transaction is one connection, which runs one statement at a time
      // (pg refuses queued ones from version 9)
      const [{ eventId, ...viewer }] = await sequelize.query<{
        id: string;
        verified: boolean;
        deposit: string;
        eventId: string;
      }>(
        `SELECT id, verified, deposit,
                (SELECT coalesce(max(id), 0)::text FROM lot_events WHERE lot_id = :lotId)
                  AS "eventId"
           FROM users WHERE id = :viewerId`,
        { replacements: { viewerId, lotId }, type: QueryTypes.SELECT, transaction },
      );
      const history = await bidHistory(lotId, viewerId, { transaction });
      const bidder = await buyingPower(viewer, { transaction });
      return {
        lot,
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
          serverTime: now().toISOString(),
        },
      };
    },
  );
}
