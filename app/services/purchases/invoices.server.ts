// A purchase's invoice: written once when its lot closes with a winner (inside the closer's
// transaction), and read back as lines, status, due date and what paying it takes now.
import { yardLabel } from "~/services/auctions/house-facts";
import { randomBytes } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { notify } from "~/platform/notifications.server";
import { formatUsd, fromCents, toCents } from "~/utils/money";
import { formatDeadline } from "~/utils/time";
import {
  defaultableAt,
  invoiceLines,
  lateFeeCents,
  linesTotal,
  paymentDueAt,
  storageCents,
  storageStartsAt,
  type InvoiceLine,
  type PurchaseTerms,
} from "./fees";
import { PurchaseError } from "./errors";
import { availableBuyingPower } from "~/services/auctions/buying-power.server";
import { findYard, type Yard } from "~/services/auctions/yards.server";
import { carrierForPurchase } from "~/services/affiliates/pickup-papers.server";
import { penaltySummary, penaltyTerms, type PenaltyTerms } from "./penalties";
import { howToPay } from "./pay-words";
import { paymentGateway } from "~/platform/payments/index.server";
import { loadSchedules, loadTerms } from "./schedules.server";

function pickupCode() {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from(randomBytes(8), (b) => alphabet[b % alphabet.length]).join("");
}

/**
 * Puts the invoice on the purchase the closer just wrote for `lot` (fees from today's schedules,
 * the due date, the pickup code) and tells the winner. Runs inside the close transaction; does
 * nothing for a purchase that already has its invoice.
 */
export async function invoiceSale(
  lot: { id: string; year: number; make: string; model: string; lot_number: string },
  transaction: Transaction,
) {
  const [purchase] = await sequelize.query<{
    id: string;
    user_id: string;
    amount: string;
    title_type: string;
    location_state: string;
    time_zone: string;
  }>(
    `SELECT p.id, p.user_id, p.amount, l.title_type, l.location_state, u.time_zone
       FROM purchases p JOIN lots l ON l.id = p.lot_id JOIN users u ON u.id = p.user_id
      WHERE p.lot_id = :lotId AND p.due_at IS NULL FOR UPDATE OF p`,
    { replacements: { lotId: lot.id }, type: QueryTypes.SELECT, transaction },
  );
  if (!purchase) return null;
  const [schedules, terms] = await Promise.all([
    loadSchedules(transaction),
    loadTerms(transaction),
  ]);
  const lines = invoiceLines(schedules, toCents(purchase.amount), purchase.title_type);
  const cents = (code: InvoiceLine["code"]) => fromCents(lines.find((l) => l.code === code)!.cents);
  // one instant: the close of the yard's business day, N business days after the sale (2701)
  const dueAt = paymentDueAt(now(), terms.dueBusinessDays, purchase.location_state);
  await sequelize.query(
    `UPDATE purchases SET title_type = :titleType, buyer_fee = :buyerFee,
       internet_fee = :internetFee, gate_fee = :gateFee, broker_fee = :brokerFee, due_at = :dueAt,
       pickup_code = :code, updated_at = now() WHERE id = :id`,
    {
      replacements: {
        id: purchase.id,
        titleType: purchase.title_type,
        buyerFee: cents("buyer_fee"),
        internetFee: cents("internet_fee"),
        gateFee: cents("gate_fee"),
        brokerFee: cents("broker_fee"),
        dueAt,
        code: pickupCode(),
      },
      transaction,
    },
  );
  await notify(
    purchase.user_id,
    {
      kind: "auction_won",
      title: "You won",
      body: `You won the ${lot.year} ${lot.make} ${lot.model} (lot ${lot.lot_number}) for ${formatUsd(purchase.amount)}. Your invoice is ready: ${formatUsd(linesTotal(lines), "cents")} due by ${formatDeadline(dueAt, purchase.time_zone)}. ${howToPay(paymentGateway().testMode)}`
        // what paying late costs, from the terms the charges use (docs/decisions/2751)
        .concat(` ${penaltySummary(terms)}`),
      link: `/purchases/${purchase.id}`,
    },
    transaction,
  );
  return purchase.id;
}

export type PurchaseRow = {
  id: string;
  lot_id: string;
  user_id: string;
  amount: string;
  status: "pending" | "paid" | "cancelled" | "defaulted";
  paid_at: Date | null;
  created_at: Date;
  title_type: string;
  buyer_fee: string;
  internet_fee: string;
  gate_fee: string;
  broker_fee: string;
  late_fee: string;
  due_at: Date | null;
  pickup_code: string | null;
  defaulted_at: Date | null;
  year: number;
  make: string;
  model: string;
  vin: string;
  lot_number: string;
  auction_house: string;
  yard_name: string | null;
  location_city: string;
  location_state: string;
  location_zip: string | null;
};

const PURCHASE_SELECT = `SELECT p.id, p.lot_id, p.user_id, p.amount, p.status, p.paid_at,
  p.created_at, p.title_type, p.buyer_fee, p.internet_fee, p.gate_fee, p.broker_fee, p.late_fee,
  p.due_at, p.pickup_code, p.defaulted_at, l.year, l.make, l.model, l.vin, l.lot_number,
  l.auction_house, l.yard_name, l.location_city, l.location_state, l.location_zip
  FROM purchases p JOIN lots l ON l.id = p.lot_id`;

/** The buyer's purchases with their lots, newest first. */
/** The id of `userId`'s invoice for a lot they won (the lot page links to it), or null. */
export async function purchaseIdForLot(userId: string, lotId: string) {
  if (!/^\d{1,18}$/.test(lotId)) return null;
  const [row] = await sequelize.query<{ id: string }>(
    `SELECT id FROM purchases WHERE lot_id = :lotId AND user_id = :userId
      ORDER BY id DESC LIMIT 1`,
    { replacements: { lotId, userId }, type: QueryTypes.SELECT },
  );
  return row ? String(row.id) : null;
}

export async function listPurchaseRows(userId: string, limit = 100) {
  return sequelize.query<PurchaseRow>(
    `${PURCHASE_SELECT} WHERE p.user_id = :userId ORDER BY p.created_at DESC, p.id DESC LIMIT :limit`,
    { replacements: { userId, limit }, type: QueryTypes.SELECT },
  );
}

/** The purchase with its lot, locked when a transaction is given; null when there is none. */
/**
 * A purchase, row-locked when read in a transaction. `nowait`: a purchase another request holds
 * locked is refused at once (409) rather than waited for, so a burst of requests for one purchase
 * cannot fill the connection pool with waiters while the holder needs a connection of its own.
 */
export async function findPurchase(
  id: string,
  transaction?: Transaction,
  options: { nowait?: boolean } = {},
) {
  if (!/^\d{1,18}$/.test(id)) return null;
  const lock = transaction ? ` FOR UPDATE OF p${options.nowait ? " NOWAIT" : ""}` : "";
  try {
    const [row] = await sequelize.query<PurchaseRow>(`${PURCHASE_SELECT} WHERE p.id = :id${lock}`, {
      replacements: { id },
      type: QueryTypes.SELECT,
      transaction,
    });
    return row ?? null;
  } catch (error) {
    if ((error as { original?: { code?: string } }).original?.code === "55P03") {
      throw new PurchaseError(
        "This purchase is being paid in another window. Refresh the page in a moment.",
        { status: 409, code: "purchase_busy" },
      );
    }
    throw error;
  }
}

/** The buyer's own purchase, or a 404 (someone else's purchase is not found either). */
export async function findOwnPurchase(
  userId: string,
  id: string,
  transaction?: Transaction,
  options: { nowait?: boolean } = {},
) {
  const row = await findPurchase(id, transaction, options);
  if (!row || row.user_id !== userId) {
    throw new PurchaseError("This purchase does not exist.", { status: 404 });
  }
  return row;
}

/** The invoice's lines as they stand at `at`: the frozen fees, and the late fee once due. */
export function purchaseLines(row: PurchaseRow, terms: PurchaseTerms, at: Date): InvoiceLine[] {
  const lines: InvoiceLine[] = [
    { code: "hammer", label: "Winning bid", cents: toCents(row.amount) },
    {
      code: "buyer_fee",
      label: row.title_type === "clean" ? "Buyer fee (clean title)" : "Buyer fee (non-clean title)",
      cents: toCents(row.buyer_fee),
    },
    { code: "internet_fee", label: "Internet bid fee", cents: toCents(row.internet_fee) },
    { code: "gate_fee", label: "Gate fee", cents: toCents(row.gate_fee) },
    { code: "broker_fee", label: "BidYard broker fee", cents: toCents(row.broker_fee) },
  ];
  const late =
    row.status === "pending" ? lateFeeCents(terms, row.due_at, at) : toCents(row.late_fee);
  if (late > 0) lines.push({ code: "late_fee", label: "Late payment fee", cents: late });
  return lines;
}

/**
 * What the buyer's deposit can put toward this purchase at `at`: the balance less what everything
 * else holds. This purchase's own hold is its whole total at `at` (bid, fees, the late fee once
 * due: record 3510), the same figure the invoice asks for, so paying it from the deposit leaves
 * the buying power where it was.
 */
export async function depositAvailableFor(
  row: PurchaseRow,
  terms: PurchaseTerms,
  at: Date,
  transaction?: Transaction,
) {
  const ownCents = row.status === "pending" ? linesTotal(purchaseLines(row, terms, at)) : 0;
  const [r] = await sequelize.query<{ available: string }>(
    `SELECT (u.deposit - e.total + :own::numeric)::numeric(14, 2)::text
       AS available FROM users u, deposit_exposure(u.id, NULL, :at) e WHERE u.id = :userId`,
    {
      replacements: { userId: row.user_id, own: fromCents(ownCents), at },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return Math.max(0, toCents(r.available));
}

/** How paying now splits: the deposit first, the rest through the gateway. */
export function splitPayment(totalCents: number, depositAvailableCents: number) {
  const depositCents = Math.min(totalCents, depositAvailableCents);
  return { depositCents, gatewayCents: totalCents - depositCents };
}

/** How the buyer chose to pay an invoice: the deposit first, or all through the gateway. */
export type PaySource = "deposit" | "gateway";

/**
 * The split for the buyer's choice (record 3313): "deposit" takes what the deposit can give and
 * the rest through the gateway; "gateway" leaves the deposit alone.
 */
export function splitFor(source: PaySource, totalCents: number, depositAvailableCents: number) {
  return source === "gateway"
    ? { depositCents: 0, gatewayCents: totalCents }
    : splitPayment(totalCents, depositAvailableCents);
}

/**
 * The invoice's two ways to pay, each with the buying power it leaves (as the transport checkout
 * shows them): paid, the invoice's hold on the deposit ends, so paying through the gateway gives
 * that back, and paying from the deposit leaves it less the deposit's part.
 */
export function payChoices(totalCents: number, depositAvailableCents: number, nowCents: number) {
  const deposit = splitFor("deposit", totalCents, depositAvailableCents);
  return {
    buyingPowerNowCents: nowCents,
    deposit: { ...deposit, afterCents: depositAvailableCents - deposit.depositCents },
    gateway: { depositCents: 0, gatewayCents: totalCents, afterCents: depositAvailableCents },
  };
}
export type PayChoices = ReturnType<typeof payChoices>;

export type PurchaseView = {
  id: string;
  lotId: string;
  status: PurchaseRow["status"];
  lot: {
    title: string;
    vin: string;
    lotNumber: string;
    auctionHouse: string;
    yard: string;
    address: string;
  };
  lines: InvoiceLine[];
  totalCents: number;
  dueAt: string | null;
  overdue: boolean;
  defaultableAt: string | null;
  paidAt: string | null;
  /** While unpaid: what paying now takes from the deposit and through the gateway. */
  split: { depositCents: number; gatewayCents: number } | null;
  /** While unpaid: the two ways to pay, each with the buying power after it. */
  choices: PayChoices | null;
  /** Once paid: what paid it. */
  paid: Array<{ kind: string; cents: number; at: string }>;
  pickupCode: string | null;
  /** The gate pass: the yard's street, hours and phone when known, and who bought. */
  gatePass: { yard: Yard | null; buyerName: string; carrier: string | null } | null;
  /** Storage at the yard: owed from `startsAt` until the vehicle is picked up (or now). */
  storage: {
    startsAt: string;
    perDayCents: number;
    owedCents: number;
    pickedUpAt: string | null;
  } | null;
  defaultFeeCents: number | null;
  /** What paying late, defaulting and storage cost, from the terms the charges use. */
  terms: PenaltyTerms;
};

export function lotTitle(row: Pick<PurchaseRow, "year" | "make" | "model">) {
  return `${row.year} ${row.make} ${row.model}`;
}

/** What the release shows the yard's gate besides the code: the yard and the buyer's name. */
async function gatePass(row: PurchaseRow) {
  const [yard, carrier, [buyer]] = await Promise.all([
    findYard(row.auction_house, row.yard_name),
    // the release names the carrier that claimed the transport job (record 3531)
    carrierForPurchase(String(row.id)),
    sequelize.query<{ first_name: string | null; last_name: string | null; email: string }>(
      "SELECT first_name, last_name, email FROM users WHERE id = :id",
      { replacements: { id: row.user_id }, type: QueryTypes.SELECT },
    ),
  ]);
  const name = [buyer?.first_name, buyer?.last_name].filter(Boolean).join(" ").trim();
  return { yard, buyerName: name || buyer?.email || "", carrier };
}

/** Everything the purchase and release pages show. */
export async function purchaseView(userId: string, id: string): Promise<PurchaseView> {
  const row = await findOwnPurchase(userId, id);
  const [terms, entries, [pickup]] = await Promise.all([
    loadTerms(),
    sequelize.query<{ kind: string; amount: string; created_at: Date }>(
      "SELECT kind, amount, created_at FROM purchase_entries WHERE purchase_id = :id ORDER BY id",
      { replacements: { id: row.id }, type: QueryTypes.SELECT },
    ),
    // the vehicle leaves the yard when a transport job for it starts: storage stops there
    sequelize.query<{ at: Date | null }>(
      "SELECT min(started_at) AS at FROM service_orders WHERE purchase_id = :id",
      { replacements: { id: row.id }, type: QueryTypes.SELECT },
    ),
  ]);
  const pickedUpAt = pickup?.at ? new Date(pickup.at) : null;
  const at = now();
  const lines = purchaseLines(row, terms, at);
  const totalCents = linesTotal(lines);
  const depositAvailable = row.status === "pending" ? await depositAvailableFor(row, terms, at) : 0;
  const split = row.status === "pending" ? splitPayment(totalCents, depositAvailable) : null;
  const choices =
    row.status === "pending"
      ? payChoices(totalCents, depositAvailable, toCents(await availableBuyingPower(userId)))
      : null;
  return {
    id: row.id,
    lotId: String(row.lot_id),
    status: row.status,
    lot: {
      title: lotTitle(row),
      vin: row.vin,
      lotNumber: row.lot_number,
      auctionHouse: row.auction_house === "iaai" ? "IAAI" : "Copart",
      // one format for every house's yard names (docs/decisions/3550)
      yard:
        yardLabel(row.auction_house, row.yard_name) ??
        `${row.auction_house === "iaai" ? "IAAI" : "Copart"} ${row.location_city}`,
      address: `${row.location_city}, ${row.location_state}${row.location_zip ? ` ${row.location_zip}` : ""}`,
    },
    lines,
    totalCents,
    dueAt: row.due_at ? new Date(row.due_at).toISOString() : null,
    overdue: row.status === "pending" && !!row.due_at && at > new Date(row.due_at),
    defaultableAt: row.due_at ? defaultableAt(terms, new Date(row.due_at)).toISOString() : null,
    paidAt: row.paid_at ? new Date(row.paid_at).toISOString() : null,
    split,
    choices,
    paid: entries.map((e) => ({
      kind: e.kind,
      cents: toCents(e.amount),
      at: new Date(e.created_at).toISOString(),
    })),
    pickupCode: row.status === "paid" ? row.pickup_code : null,
    gatePass: row.status === "paid" ? await gatePass(row) : null,
    storage: row.paid_at
      ? {
          startsAt: storageStartsAt(terms, new Date(row.paid_at), row.location_state).toISOString(),
          perDayCents: terms.storagePerDayCents,
          owedCents: storageCents(
            terms,
            new Date(row.paid_at),
            pickedUpAt ?? at,
            row.location_state,
          ),
          pickedUpAt: pickedUpAt?.toISOString() ?? null,
        }
      : null,
    defaultFeeCents:
      row.status === "defaulted"
        ? entries.find((e) => e.kind === "default_fee")
          ? toCents(entries.find((e) => e.kind === "default_fee")!.amount)
          : 0
        : null,
    terms: penaltyTerms(terms),
  };
}
