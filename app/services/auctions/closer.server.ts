import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { closeDelaySeconds, lotsClosedTotal } from "~/platform/metrics.server";
import { invoiceSale } from "~/services/purchases/invoices.server";
import { queuePurchaseMail } from "~/services/purchases/mail.server";

type EndedLot = {
  id: string;
  status: string;
  ends_at: Date;
  current_bid: string;
  high_bidder_id: string | null;
  year: number;
  make: string;
  model: string;
  lot_number: string;
};

const LOT_COLUMNS =
  "id, status, ends_at, current_bid, high_bidder_id, year, make, model, lot_number";

/** Closes one locked, ended lot: sold with a purchase and a "You won", or unsold. */
async function closeLocked(lot: EndedLot, transaction: Transaction) {
  const at = now();
  // counted once the transaction commits: a rolled-back close closed nothing
  const result = await closeLockedLot(lot, at, transaction);
  transaction.afterCommit(() => {
    lotsClosedTotal.inc({ result });
    closeDelaySeconds.observe(Math.max(0, at.getTime() - new Date(lot.ends_at).getTime()) / 1000);
  });
  return result;
}

async function closeLockedLot(lot: EndedLot, at: Date, transaction: Transaction) {
  if (lot.high_bidder_id) {
    await sequelize.query(
      `UPDATE lots SET status = 'sold', closed_at = :at, updated_at = now() WHERE id = :id;
       INSERT INTO purchases (lot_id, user_id, amount, status) VALUES (:id, :userId, :amount, 'pending')
       ON CONFLICT (lot_id) DO NOTHING;`,
      {
        replacements: { id: lot.id, at, userId: lot.high_bidder_id, amount: lot.current_bid },
        transaction,
      },
    );
    // the invoice and the "You won" that links to it (docs/decisions/1701), and its e-mail with
    // the invoice attached, queued in the same commit (docs/decisions/2754)
    const purchaseId = await invoiceSale(lot, transaction);
    if (purchaseId) await queuePurchaseMail("won", String(purchaseId), transaction);
    return "sold" as const;
  }
  await sequelize.query(
    "UPDATE lots SET status = 'unsold', closed_at = :at, updated_at = now() WHERE id = :id",
    { replacements: { id: lot.id, at }, transaction },
  );
  return "unsold" as const;
}

/**
 * The sweep (every minute, docs/decisions/3561): closes every ended lot (up to `limit`) that its
 * own close job has not, a safety net for a job lost or failed. Lots another transaction holds
 * are skipped: their close is under way.
 */
export async function closeEndedLots(limit = 200): Promise<number> {
  return sequelize.transaction(async (transaction) => {
    const lots = await sequelize.query<EndedLot>(
      `SELECT ${LOT_COLUMNS} FROM lots WHERE status = 'active' AND ends_at <= :at
        ORDER BY ends_at, id LIMIT :limit FOR UPDATE SKIP LOCKED`,
      { replacements: { at: now(), limit }, type: QueryTypes.SELECT, transaction },
    );
    for (const lot of lots) await closeLocked(lot, transaction);
    return lots.length;
  });
}

/** Closes one lot if it has ended (its close_lot job; docs/decisions/3561). */
export async function closeLotIfEnded(lotId: string | number) {
  return sequelize.transaction(async (transaction) => {
    const [lot] = await sequelize.query<EndedLot>(
      `SELECT ${LOT_COLUMNS} FROM lots WHERE id = :id AND status = 'active' AND ends_at <= :at
        FOR UPDATE`,
      { replacements: { id: String(lotId), at: now() }, type: QueryTypes.SELECT, transaction },
    );
    // re-check after the lock: a bid may have extended it (soft close) while we waited
    if (!lot || new Date(lot.ends_at).getTime() > now().getTime()) return null;
    return closeLocked(lot, transaction);
  });
}
