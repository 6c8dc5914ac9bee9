// The one fee module: every line of a purchase's invoice, the all-in estimate before bidding and
// the reverse ("the most I will pay all in"), in integer cents. Plain TypeScript: the invoice
// (server), the estimate form and the purchase page (browser) all compute with these functions,
// from the schedules stored in the database (docs/decisions/1701).
import { YARD_CLOSING, yardTimeZone } from "~/services/auctions/yard-zones";
import { endOfBusinessDay } from "~/utils/time";

export const FEE_SCHEDULES = [
  "buyer_clean",
  "buyer_nonclean",
  "internet",
  "gate",
  "broker",
] as const;
export type FeeScheduleName = (typeof FEE_SCHEDULES)[number];

export const SCHEDULE_LABELS: Record<FeeScheduleName, string> = {
  buyer_clean: "Buyer fee, clean title",
  buyer_nonclean: "Buyer fee, non-clean title",
  internet: "Internet bid fee",
  gate: "Gate fee",
  broker: "BidYard broker fee",
};

/** A band applies to a sale price in [minCents, maxCents); maxCents null: no upper bound. */
export type FeeBand = {
  minCents: number;
  maxCents: number | null;
  feeCents: number;
  percentBp: number;
};
export type FeeSchedules = Record<FeeScheduleName, FeeBand[]>;

export type PurchaseTerms = {
  dueBusinessDays: number;
  lateFeeCents: number;
  storageFreeDays: number;
  storagePerDayCents: number;
  defaultGraceDays: number;
  defaultFeeCents: number;
};

export type InvoiceLineCode =
  "hammer" | "buyer_fee" | "internet_fee" | "gate_fee" | "broker_fee" | "late_fee" | "transport";
export type InvoiceLine = { code: InvoiceLineCode; label: string; cents: number };

/** Titles sold under the clean schedule; every other title type uses the non-clean one. */
export function isCleanTitle(titleType: string) {
  return titleType === "clean";
}

/** The fee one schedule charges at a sale price: the band's flat part plus its percentage. */
export function bandFee(bands: FeeBand[], priceCents: number): number {
  const band = bands.find(
    (b) => priceCents >= b.minCents && (b.maxCents === null || priceCents < b.maxCents),
  );
  if (!band) return 0;
  return band.feeCents + Math.round((priceCents * band.percentBp) / 10_000);
}

/** The invoice's lines at a hammer price (no late fee, no transport): hammer first. */
export function invoiceLines(
  schedules: FeeSchedules,
  hammerCents: number,
  titleType: string,
): InvoiceLine[] {
  const buyer = isCleanTitle(titleType) ? schedules.buyer_clean : schedules.buyer_nonclean;
  return [
    { code: "hammer", label: "Winning bid", cents: hammerCents },
    {
      code: "buyer_fee",
      label: isCleanTitle(titleType) ? "Buyer fee (clean title)" : "Buyer fee (non-clean title)",
      cents: bandFee(buyer, hammerCents),
    },
    {
      code: "internet_fee",
      label: "Internet bid fee",
      cents: bandFee(schedules.internet, hammerCents),
    },
    { code: "gate_fee", label: "Gate fee", cents: bandFee(schedules.gate, hammerCents) },
    {
      code: "broker_fee",
      label: "BidYard broker fee",
      cents: bandFee(schedules.broker, hammerCents),
    },
  ];
}

export function linesTotal(lines: InvoiceLine[]) {
  return lines.reduce((sum, line) => sum + line.cents, 0);
}

/** What winning at `hammerCents` costs in all, with transport when it is known. */
export function allInCost(
  schedules: FeeSchedules,
  hammerCents: number,
  titleType: string,
  transportCents: number | null = null,
) {
  const lines = invoiceLines(schedules, hammerCents, titleType);
  if (transportCents !== null) {
    lines.push({ code: "transport", label: "Transport estimate", cents: transportCents });
  }
  return { lines, totalCents: linesTotal(lines) };
}

/**
 * The highest bid, in whole `stepCents`, whose all-in cost fits `budgetCents`, or null when not
 * even the smallest bid fits. Fees rise with the price, so a binary search finds the edge; the
 * answer is checked, and walked down where a band edge makes the total jump.
 */
export function highestBidWithin(
  schedules: FeeSchedules,
  budgetCents: number,
  titleType: string,
  transportCents: number | null = null,
  stepCents = 100,
): number | null {
  const fits = (steps: number) =>
    allInCost(schedules, steps * stepCents, titleType, transportCents).totalCents <= budgetCents;
  let low = 0;
  let high = Math.floor(budgetCents / stepCents);
  if (high < 1 || !fits(1)) return null;
  low = 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  while (low > 1 && !fits(low)) low -= 1;
  return fits(low) ? low * stepCents : null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When a sale's payment is due: the close of the yard's business day (5 PM on its own clock),
 * `days` business days (Monday to Friday, not a US federal holiday: record 3210) after the day of
 * the sale there. One instant, shown the
 * same way everywhere in the viewer's zone (docs/decisions/2701).
 */
export function paymentDueAt(soldAt: Date, days: number, yardState: string | null): Date {
  return endOfBusinessDay(soldAt, days, yardTimeZone(yardState), YARD_CLOSING);
}

/** The late fee owed when paying at `at`: the flat fee once past the due date. */
export function lateFeeCents(terms: PurchaseTerms, dueAt: Date | null, at: Date) {
  return dueAt && at.getTime() > dueAt.getTime() ? terms.lateFeeCents : 0;
}

/**
 * When free storage ends for a purchase paid at `paidAt` at a yard in `yardState` (record 3511):
 * the yard's closing time on the Nth business day after payment (Monday to Friday, US federal
 * holidays excepted: record 3210; the business days of the due date, record 2701), so "free for
 * 3 days" is three days the yard is open for pickup. With no free days, storage runs from payment.
 */
export function storageStartsAt(terms: PurchaseTerms, paidAt: Date, yardState: string | null) {
  if (terms.storageFreeDays <= 0) return paidAt;
  return endOfBusinessDay(paidAt, terms.storageFreeDays, yardTimeZone(yardState), YARD_CLOSING);
}

/**
 * Storage owed at the yard at `at`: each started day after the free days end (storageStartsAt).
 * Collected by the yard at pickup, shown so the buyer can plan (docs/decisions/1701).
 */
export function storageCents(
  terms: PurchaseTerms,
  paidAt: Date | null,
  at: Date,
  yardState: string | null,
) {
  if (!paidAt) return 0;
  const freeUntil = storageStartsAt(terms, paidAt, yardState).getTime();
  if (at.getTime() <= freeUntil) return 0;
  return Math.ceil((at.getTime() - freeUntil) / DAY_MS) * terms.storagePerDayCents;
}

/** When an unpaid purchase may be defaulted: its due date plus the grace days. */
export function defaultableAt(terms: PurchaseTerms, dueAt: Date) {
  return new Date(dueAt.getTime() + terms.defaultGraceDays * DAY_MS);
}
