// Defaulting an unpaid purchase (docs/decisions/1704): past its due date plus the grace days, an
// admin marks it defaulted. The default fee comes out of the deposit (as much as it has free), the
// purchase's hold ends with its pending status, and the lot is relisted or closed. Audited and
// notified, all in one transaction under the purchase's row lock.
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { recordAdminAction } from "~/services/admin/audit.server";
import { postLedgerEntry } from "~/services/deposits/deposits.server";
import { now } from "~/platform/clock.server";
import { notify } from "~/platform/notifications.server";
import { formatUsd, fromCents, toCents } from "~/utils/money";
import { defaultableAt } from "./fees";
import { PurchaseError } from "./errors";
import { findPurchase, lotTitle } from "./invoices.server";
import { closeOpenCheckouts } from "./paying.server";
import { loadTerms } from "./schedules.server";

export type LotAfterDefault = "relist" | "close";
const RELIST_DAYS = 7;

export async function defaultPurchase(
  admin: Pick<User, "id" | "email">,
  purchaseId: string,
  lotAfter: LotAfterDefault,
) {
  const result = await defaultInTransaction(admin, purchaseId, lotAfter);
  // a defaulted invoice cannot be paid: its open checkouts close (docs/decisions/2753)
  await closeOpenCheckouts(purchaseId);
  return result;
}

async function defaultInTransaction(
  admin: Pick<User, "id" | "email">,
  purchaseId: string,
  lotAfter: LotAfterDefault,
) {
  const terms = await loadTerms();
  return sequelize.transaction(async (transaction) => {
    const row = await findPurchase(purchaseId, transaction);
    if (!row) throw new PurchaseError("This purchase does not exist.", { status: 404 });
    if (row.status !== "pending") {
      throw new PurchaseError("Only an unpaid purchase can be defaulted.", { status: 409 });
    }
    const at = now();
    if (!row.due_at || at < defaultableAt(terms, new Date(row.due_at))) {
      throw new PurchaseError("This purchase is not past its due date and grace period yet.", {
        status: 409,
      });
    }
    // the buyer's bids and deposit changes wait for this (the lock place_bid takes)
    await sequelize.query("SELECT id FROM users WHERE id = :id FOR NO KEY UPDATE", {
      replacements: { id: row.user_id },
      transaction,
    });
    await sequelize.query(
      `UPDATE purchases SET status = 'defaulted', defaulted_at = :at, updated_at = now()
        WHERE id = :id`,
      { replacements: { id: row.id, at }, transaction },
    );
    // The fee comes out of what the deposit has free once this purchase's hold has ended, so
    // the buyer's leading bids and other unpaid purchases stay covered.
    const [{ free }] = await sequelize.query<{ free: string }>(
      `SELECT greatest(0, u.deposit - e.total) AS free
         FROM users u, deposit_exposure(u.id, NULL, :at) e WHERE u.id = :id`,
      { replacements: { id: row.user_id, at }, type: QueryTypes.SELECT, transaction },
    );
    const feeCents = Math.min(terms.defaultFeeCents, toCents(free));
    if (feeCents > 0) {
      const entry = await postLedgerEntry(transaction, {
        userId: row.user_id,
        kind: "applied",
        amount: fromCents(-feeCents),
        memo: `Default fee, purchase ${row.id} (lot ${row.lot_number})`,
      });
      await sequelize.query(
        `UPDATE deposit_entries SET purchase_id = :purchaseId WHERE id = :entryId;
         INSERT INTO purchase_entries (purchase_id, user_id, kind, amount, deposit_entry_id)
         VALUES (:purchaseId, :userId, 'default_fee', :amount, :entryId)`,
        {
          replacements: {
            purchaseId: row.id,
            entryId: entry.id,
            userId: row.user_id,
            amount: fromCents(feeCents),
          },
          transaction,
        },
      );
    }
    // the sale is void: the lot is no longer sold
    await sequelize.query("UPDATE lots SET status = 'unsold', updated_at = now() WHERE id = :id", {
      replacements: { id: row.lot_id },
      transaction,
    });
    let relistedId: string | null = null;
    if (lotAfter === "relist") {
      const [relisted] = await sequelize.query<{ id: string }>(
        `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, trim_level, body_style,
           color, location_city, location_state, location_zip, yard_name, damage_type,
           primary_damage, secondary_damage, title_state, title_type, odometer, runs_drives,
           has_keys, estimated_value, repair_cost, image_urls, starts_at, ends_at)
         SELECT auction_house, left(lot_number, 16) || '-R' || (SELECT count(*) + 1 FROM lots r
                  WHERE r.auction_house = l.auction_house AND r.lot_number LIKE left(l.lot_number, 16) || '-R%'),
           vin, year, make, model, trim_level, body_style, color, location_city, location_state,
           location_zip, yard_name, damage_type, primary_damage, secondary_damage, title_state,
           title_type, odometer, runs_drives, has_keys, estimated_value, repair_cost, image_urls,
           :at, :endsAt
         FROM lots l WHERE l.id = :lotId RETURNING id`,
        {
          replacements: {
            lotId: row.lot_id,
            at,
            endsAt: new Date(at.getTime() + RELIST_DAYS * 24 * 60 * 60 * 1000),
          },
          type: QueryTypes.SELECT,
          transaction,
        },
      );
      relistedId = String(relisted.id);
    }
    await recordAdminAction(
      admin,
      "purchases.defaulted",
      { type: "purchase", id: row.id },
      {
        before: { status: "pending" },
        after: { status: "defaulted", defaultFee: fromCents(feeCents), lot: lotAfter, relistedId },
      },
      transaction,
    );
    await notify(
      row.user_id,
      {
        kind: "purchase_defaulted",
        title: "Purchase defaulted",
        body: `${lotTitle(row)} (lot ${row.lot_number}) was not paid in time and the sale is cancelled.${feeCents > 0 ? ` A default fee of ${formatUsd(feeCents, "cents")} was taken from your deposit; the rest of it is free again.` : ""}`,
        link: `/purchases/${row.id}`,
      },
      transaction,
    );
    return { feeCents, relistedId };
  });
}

export type OverduePurchase = {
  id: string;
  title: string;
  lotNumber: string;
  buyerEmail: string;
  amount: string;
  dueAt: string;
  defaultable: boolean;
};

/** Unpaid purchases past their due date, oldest first: what an admin may default. */
export async function overduePurchases(): Promise<OverduePurchase[]> {
  const terms = await loadTerms();
  const at = now();
  const rows = await sequelize.query<{
    id: string;
    year: number;
    make: string;
    model: string;
    lot_number: string;
    email: string;
    amount: string;
    due_at: Date;
  }>(
    `SELECT p.id, l.year, l.make, l.model, l.lot_number, u.email, p.amount, p.due_at
       FROM purchases p JOIN lots l ON l.id = p.lot_id JOIN users u ON u.id = p.user_id
      WHERE p.status = 'pending' AND p.due_at < :at ORDER BY p.due_at, p.id LIMIT 200`,
    { replacements: { at }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => ({
    id: String(r.id),
    title: lotTitle(r),
    lotNumber: r.lot_number,
    buyerEmail: r.email,
    amount: r.amount,
    dueAt: new Date(r.due_at).toISOString(),
    defaultable: at >= defaultableAt(terms, new Date(r.due_at)),
  }));
}
