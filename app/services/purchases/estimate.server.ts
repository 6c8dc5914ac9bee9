// "If you win at $X": the same fee module and schedules as the invoice, plus the job board's own
// transport quote (app/services/affiliates/rules.ts, read only) from the yard to the buyer's ZIP
// code or city.
import { roadMiles } from "~/services/affiliates/distance";
import { quotePayoutCents } from "~/services/affiliates/rules";
import {
  cityLabel,
  findCity,
  findCityByLabel,
  largestCityInState,
} from "~/services/affiliates/us-cities";
import { findZipArea, isZipCode } from "~/services/affiliates/zips";
import { MIN_INCREMENT_CENTS } from "~/services/auctions/rules";
import { parseCents } from "~/utils/money";
import { allInCost, highestBidWithin, type InvoiceLine } from "./fees";
import { penaltyTerms, type PenaltyTerms } from "./penalties";
import { feesAt, type Fees } from "./schedules.server";
import { estimateSchema } from "./schemas";

export type AllInEstimate = {
  bid: string;
  budget: string;
  to: string;
  /** The first problem, if any. */
  error: string | null;
  /** Each field's problem, shown under that field. */
  errors: Partial<Record<"bid" | "budget" | "to", string>>;
  bidCents: number;
  lines: InvoiceLine[];
  totalCents: number;
  transport: { from: string; to: string; miles: number } | null;
  /** The reverse: the most the buyer will pay all in, and the highest bid that fits it. */
  budgetCents: number | null;
  maxBidCents: number | null;
  /** What paying late, defaulting and storage would cost after winning. */
  terms: PenaltyTerms;
  /** The lowest bid the lot accepts now: a budget whose highest bid is below it is passed. */
  minBidCents: number;
};

/** The estimate for the lot page's GET form (`?bid=&budget=&to=`); defaults to the next bid. */
export async function allInEstimate(
  lot: { titleType: string; locationCity: string; locationState: string; currentBid: string },
  params: URLSearchParams,
  /** the schedules and terms already read (the lot page keeps them: record 3543) */
  fees: Fees | null = null,
): Promise<AllInEstimate> {
  const raw = {
    bid: params.get("bid")?.trim() || undefined,
    budget: params.get("budget")?.trim() || undefined,
    to: params.get("to")?.trim() || undefined,
  };
  // Each field on its own: a mistake in one leaves the others' answers standing.
  const errors: AllInEstimate["errors"] = {};
  const read = <K extends keyof typeof raw>(key: K) => {
    const parsed = estimateSchema.shape[key].safeParse(raw[key]);
    if (parsed.success) return parsed.data;
    errors[key] = parsed.error.issues[0].message;
    return undefined;
  };
  const bid = read("bid") as number | undefined;
  const budget = read("budget") as number | undefined;
  const to = read("to") as string | undefined;
  const nextBid = (parseCents(lot.currentBid) ?? 0) + MIN_INCREMENT_CENTS;
  const bidCents = bid ?? nextBid;
  const budgetCents = budget ?? null;

  let transport: AllInEstimate["transport"] = null;
  let transportCents: number | null = null;
  if (to) {
    const zip = isZipCode(to);
    const destination = zip ? findZipArea(to) : findCityByLabel(to);
    const origin =
      findCity(lot.locationCity, lot.locationState) ?? largestCityInState(lot.locationState);
    if (!destination) {
      errors.to = zip
        ? `We do not know ZIP code ${to}. Check it, or enter a city as "Dallas, TX".`
        : 'Enter a 5-digit ZIP code, or a city as "Dallas, TX".';
    } else if (origin) {
      const miles = roadMiles(origin, destination);
      transportCents = quotePayoutCents("shipping", miles);
      transport = {
        from: cityLabel(origin),
        to: zip ? `${to.slice(0, 5)} (${cityLabel(destination)} area)` : cityLabel(destination),
        miles,
      };
    }
  }
  const { schedules, terms } = fees ?? (await feesAt(null));
  const { lines, totalCents } = allInCost(schedules, bidCents, lot.titleType, transportCents);
  return {
    bid: raw.bid ?? (nextBid / 100).toFixed(0),
    budget: raw.budget ?? "",
    to: raw.to ?? "",
    error: errors.bid ?? errors.budget ?? errors.to ?? null,
    errors,
    bidCents,
    lines,
    totalCents,
    transport,
    budgetCents,
    minBidCents: nextBid,
    maxBidCents:
      budgetCents === null
        ? null
        : highestBidWithin(schedules, budgetCents, lot.titleType, transportCents),
    terms: penaltyTerms(terms),
  };
}
