// Price guidance from its own evidence (docs/decisions/2703): the likely price of a lot and what
// a bid compares with, built from the comparable sales the lot page shows. Plain TypeScript in
// integer cents: the lot page (server), the bid form (browser) and the tests use the same rules.
import { centsToDecimal, formatUsd, toCents } from "~/utils/money";

/** Comparable sales listed (the lot's own sales page): the newest this many. */
export const COMPARABLE_LIMIT = 8;
/** A likely range from sales needs at least this many comparable sales. */
export const MIN_COMPARABLES = 3;
/** With fewer sales, the range is theirs widened by this share each way, and says so. */
export const FEW_SALES_MARGIN = 0.2;
/** With none, the value model's guess ±20 %, and says so. */
export const MODEL_MARGIN = 0.2;

export type LikelyPrice = {
  low: string;
  high: string;
  /** sales: the middle half of enough sales; few_sales: 1–2 sales, widened; model: no sales */
  basis: "sales" | "few_sales" | "model";
  /** how many sales it rests on */
  count: number;
};

export type SalesSpread = {
  count: number;
  median: string | null;
  /** the lowest and highest of the sales the range rests on */
  min: string | null;
  max: string | null;
};

const STEP = 2500; // ranges read in $25 steps

function percentile(sorted: number[], q: number) {
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** The sales' count, median and spread (lowest to highest), in the same cents the range uses. */
export function salesSpread(pricesCents: number[]): SalesSpread {
  const sorted = [...pricesCents].sort((a, b) => a - b);
  if (sorted.length === 0) return { count: 0, median: null, min: null, max: null };
  return {
    count: sorted.length,
    median: centsToDecimal(Math.round(percentile(sorted, 0.5))),
    min: centsToDecimal(sorted[0]),
    max: centsToDecimal(sorted[sorted.length - 1]),
  };
}

/**
 * The likely hammer price:
 * - at least MIN_COMPARABLES sales: their middle half (25th to 75th percentile) in $25 steps,
 *   never outside the lowest and highest sale;
 * - one or two sales: from the lowest less 20 % to the highest plus 20 % ("few sales: wide range");
 * - none: the value model's guess ±20 % (null without one).
 */
export function likelyPrice(
  pricesCents: number[],
  modelGuessCents: number | null,
): LikelyPrice | null {
  const sorted = [...pricesCents].sort((a, b) => a - b);
  const count = sorted.length;
  if (count >= MIN_COMPARABLES) {
    const min = sorted[0];
    const max = sorted[count - 1];
    const low = clamp(Math.round(percentile(sorted, 0.25) / STEP) * STEP, min, max);
    const high = clamp(Math.round(percentile(sorted, 0.75) / STEP) * STEP, low, max);
    return { low: centsToDecimal(low), high: centsToDecimal(high), basis: "sales", count };
  }
  if (count > 0) {
    const low = Math.max(STEP, Math.floor((sorted[0] * (1 - FEW_SALES_MARGIN)) / STEP) * STEP);
    const high = Math.ceil((sorted[count - 1] * (1 + FEW_SALES_MARGIN)) / STEP) * STEP;
    return { low: centsToDecimal(low), high: centsToDecimal(high), basis: "few_sales", count };
  }
  if (modelGuessCents === null || modelGuessCents <= 0) return null;
  const low = Math.max(STEP, Math.round((modelGuessCents * (1 - MODEL_MARGIN)) / STEP) * STEP);
  const high = Math.round((modelGuessCents * (1 + MODEL_MARGIN)) / STEP) * STEP;
  return { low: centsToDecimal(low), high: centsToDecimal(high), basis: "model", count: 0 };
}

/** What the bid form compares a bid with: only a range resting on enough sales. */
export type BidGuidance = {
  likely: LikelyPrice;
  /** the median of those sales: "the likely price" a saving is measured from */
  median: string;
  runsDrives: boolean;
};

/** The bid form's reference, or null when the evidence is too thin to compare a bid with. */
export function bidGuidance(
  likely: LikelyPrice | null,
  spread: SalesSpread,
  runsDrives: boolean,
): BidGuidance | null {
  if (!likely || likely.basis !== "sales" || spread.median === null) return null;
  return { likely, median: spread.median, runsDrives };
}

export type BidAdvice = { kind: "save"; text: string } | { kind: "above"; text: string } | null;

/** "$1,238": an estimate's whole dollars, rounded (a saving is "about" so much). */
const aboutUsd = (cents: number) => formatUsd(Math.round(cents / 100) * 100, "cents").slice(0, -3);

/**
 * What the bid form says under a bid of `amountCents`:
 * - "About $A all in, $S under the likely price of $M": a running vehicle, enough sales, and the
 *   bid's all-in cost (`allInOf`: the bid plus every fee the invoice would add, from the stored
 *   schedules) under their median. Never from the bare bid, which leaves the fees out, nor from
 *   the retail value: a salvage lot never sells there (record 3542);
 * - a warning when the bid is above the likely range (any vehicle, enough sales);
 * - nothing otherwise.
 */
export function bidAdvice(
  amountCents: number,
  guidance: BidGuidance | null,
  allInOf: ((bidCents: number) => number) | null = null,
): BidAdvice {
  if (!guidance || amountCents <= 0) return null;
  const median = toCents(guidance.median);
  const high = toCents(guidance.likely.high);
  const sales = `${guidance.likely.count} comparable sales`;
  if (amountCents > high) {
    return {
      kind: "above",
      text: `Warning: your bid is above the likely price of ${formatUsd(guidance.likely.low)} – ${formatUsd(guidance.likely.high)} (the middle half of ${sales}).`,
    };
  }
  if (!guidance.runsDrives || !allInOf) return null;
  const allIn = allInOf(amountCents);
  const under = Math.round(median / 100) * 100 - Math.round(allIn / 100) * 100;
  if (under <= 0) return null;
  return {
    kind: "save",
    text: `About ${aboutUsd(allIn)} all in with the fees, ${aboutUsd(under)} under the likely price of ${formatUsd(guidance.median)} (the median of ${sales}).`,
  };
}
