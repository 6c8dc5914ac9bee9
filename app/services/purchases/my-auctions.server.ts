// "My auctions": the lots a buyer watches, bids on, won and lost, in one read per section.
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { linesTotal } from "./fees";
import { listPurchaseRows, lotTitle, purchaseLines } from "./invoices.server";
import { loadTerms } from "./schedules.server";
import type { PurchaseStatus } from "./status";

type LotRow = {
  id: string;
  year: number;
  make: string;
  model: string;
  lot_number: string;
  status: string;
  ends_at: Date;
  current_bid: string;
  high_bidder_id: string | null;
  my_max: string | null;
};

export type MyLot = {
  id: string;
  title: string;
  lotNumber: string;
  endsAt: string;
  currentBid: string;
  open: boolean;
  leading: boolean;
  myMax: string | null;
};

export type MyPurchase = {
  id: string;
  lotId: string;
  title: string;
  lotNumber: string;
  status: PurchaseStatus;
  totalCents: number;
  dueAt: string | null;
  overdue: boolean;
};

export type MyAuctions = {
  now: string;
  watching: MyLot[];
  bidding: MyLot[];
  won: MyPurchase[];
  lost: MyLot[];
};

const LOT_FIELDS = `l.id, l.year, l.make, l.model, l.lot_number, l.status, l.ends_at, l.current_bid,
  l.high_bidder_id`;

function toLot(row: LotRow, userId: string, at: Date): MyLot {
  return {
    id: String(row.id),
    title: lotTitle(row),
    lotNumber: row.lot_number,
    endsAt: new Date(row.ends_at).toISOString(),
    currentBid: row.current_bid,
    open: row.status === "active" && new Date(row.ends_at) > at,
    leading: row.high_bidder_id === userId,
    myMax: row.my_max,
  };
}

export async function myAuctions(userId: string): Promise<MyAuctions> {
  const at = now();
  const select = (sql: string) =>
    sequelize.query<LotRow>(sql, { replacements: { userId, at }, type: QueryTypes.SELECT });
  // It only reads (docs/decisions/3562): a lot past its end but not closed yet stays under
  // "bidding", shown as closing, until its close job has run moments later.
  const [watching, bidding, lost, purchases, terms] = await Promise.all([
    select(
      `SELECT ${LOT_FIELDS}, NULL AS my_max FROM watchlist w JOIN lots l ON l.id = w.lot_id
        WHERE w.user_id = :userId AND l.status = 'active' ORDER BY l.ends_at, l.id LIMIT 100`,
    ),
    select(
      `SELECT ${LOT_FIELDS}, m.my_max FROM (SELECT lot_id, max(max_amount) AS my_max FROM bids
          WHERE user_id = :userId AND NOT automatic GROUP BY lot_id) m
        JOIN lots l ON l.id = m.lot_id WHERE l.status = 'active' ORDER BY l.ends_at, l.id LIMIT 100`,
    ),
    select(
      `SELECT ${LOT_FIELDS}, m.my_max FROM (SELECT lot_id, max(max_amount) AS my_max FROM bids
          WHERE user_id = :userId AND NOT automatic GROUP BY lot_id) m
        JOIN lots l ON l.id = m.lot_id
       WHERE l.status <> 'active' AND l.high_bidder_id IS DISTINCT FROM :userId
       ORDER BY l.ends_at DESC, l.id DESC LIMIT 50`,
    ),
    listPurchaseRows(userId),
    loadTerms(),
  ]);
  return {
    now: at.toISOString(),
    watching: watching.map((row) => toLot(row, userId, at)),
    bidding: bidding.map((row) => toLot(row, userId, at)),
    lost: lost.map((row) => toLot(row, userId, at)),
    won: purchases.map((row) => ({
      id: String(row.id),
      lotId: String(row.lot_id),
      title: lotTitle(row),
      lotNumber: row.lot_number,
      status: row.status,
      totalCents: linesTotal(purchaseLines(row, terms, at)),
      dueAt: row.due_at ? new Date(row.due_at).toISOString() : null,
      overdue: row.status === "pending" && !!row.due_at && at > new Date(row.due_at),
    })),
  };
}
