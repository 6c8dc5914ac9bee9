// The auction rules, in one place for the browser (bid form, badges, dialog) and the server
// (bidding.server.ts passes the numbers to the place_bid database function). Plain TypeScript:
// no server imports, so any component may use it.
import { centsToDecimal, formatUsd, parseCents } from "~/utils/money";

/** Each bid must beat the current bid by at least this much (and proxies raise by it). */
export const MIN_INCREMENT_CENTS = 50_00;

/** The largest bid (or proxy maximum) anyone may type; more is refused by its size. */
export const MAX_BID_CENTS = 10_000_000_00;

/** A bid in a lot's last two minutes moves its end to two minutes after that bid. */
export const SOFT_CLOSE_MS = 2 * 60 * 1000;

/** A live lot shows ENDING SOON (and BID NOW!) in its last hour; its watchers' alert goes out then. */
export const ENDING_SOON_MS = 60 * 60 * 1000;

/**
 * Of the hour's ENDING SOON lots, only those in their last ten minutes wear red: the truly
 * urgent; the others are amber beside their time left (docs/decisions/3553).
 */
export const URGENT_MS = 10 * 60 * 1000;

/** Whether a lot ending at `endsAt` is in its last ten minutes at `at`. */
export function isUrgent(endsAt: Date | string, at: Date | string) {
  const left = new Date(endsAt).getTime() - new Date(at).getTime();
  return left > 0 && left <= URGENT_MS;
}

export type Badge = "LIVE" | "STARTING SOON" | "ENDING SOON" | "CLOSING" | "ENDED";

/**
 * The badge from the lot's times and the server clock (never guessed in the browser): ENDED once
 * it is closed, CLOSING past its end until its close job has closed it (a page never closes a
 * lot itself: docs/decisions/3562), STARTING SOON before its start, ENDING SOON in its last hour.
 */
export function lotBadge(
  lot: { status: string; startsAt: Date | string; endsAt: Date | string },
  at: Date,
): Badge {
  const t = at.getTime();
  const ends = new Date(lot.endsAt).getTime();
  if (lot.status !== "active") return "ENDED";
  if (t >= ends) return "CLOSING";
  if (t < new Date(lot.startsAt).getTime()) return "STARTING SOON";
  if (ends - t <= ENDING_SOON_MS) return "ENDING SOON";
  return "LIVE";
}

/** The lowest bid a lot accepts now: its current bid plus the increment. */
export function minimumBidCents(currentBid: string) {
  return (parseCents(currentBid) ?? 0) + MIN_INCREMENT_CENTS;
}

/** The minimum as the bid form and the refusal show it: "$150.50". */
export function minimumBidLabel(minCents: number) {
  return formatUsd(minCents, "cents");
}

/** How every screen labels the buying power (deposit minus what it holds): one name, one figure. */
export const BUYING_POWER_LABEL = "Available for bidding";

/** A step a user must still take before bidding, in the order to take them. */
export type BidderNeed = "verification" | "deposit";

/**
 * What a bidder can put on one lot: their available buying power plus what their own lead on
 * that lot already holds (a lot's hold is not counted against itself).
 */
export function availableForLot(available: string, myMaxOnLot: string | null | undefined) {
  return centsToDecimal((parseCents(available) ?? 0) + (parseCents(myMaxOnLot) ?? 0));
}

/**
 * The texts a refused bid shows, as a title and a description; the message people read is
 * "<title>: <description>". The form's own checks and the server's use the same ones.
 */
export const BID_TEXTS = {
  unauthorized: { title: "Unauthorized", description: "You are logged out." },
  verification: {
    title: "Verification Required",
    description: "Please complete KYC verification before bidding.",
  },
  deposit: {
    title: "Deposit Required",
    description: "Minimum $400 deposit required before bidding.",
  },
  /** `minLabel` is the minimum as shown, e.g. "$150.50" (see minimumBidLabel). */
  minimum: (minLabel: string) => ({
    title: "Invalid Bid",
    description: `Minimum bid is ${minLabel}`,
  }),
  amountMissing: { title: "Invalid Bid", description: "Enter your bid amount." },
  cents: {
    title: "Invalid Bid",
    description: "Enter an amount in dollars and cents (e.g. 1250.50).",
  },
  tooLarge: {
    title: "Invalid Bid",
    description: `A bid is at most ${formatUsd(MAX_BID_CENTS, "cents")}.`,
  },
  proxy: {
    title: "Invalid Proxy Bid",
    description: "Maximum proxy bid must be higher than initial bid.",
  },
  funds: { title: "Insufficient Funds", description: "Bid amount exceeds your available deposit." },
  /** The high bidder's new maximum must be above the one they hold (`maxLabel`, e.g. "$500"). */
  notHigher: (maxLabel: string) => ({
    title: "Already Leading",
    description: `You are the high bidder with a maximum of ${maxLabel}. To raise it, enter a maximum above ${maxLabel}.`,
  }),
  ended: { title: "Auction Ended", description: "This auction has ended; bids are closed." },
  notFound: { title: "Lot Not Found", description: "This auction lot does not exist." },
} as const;

export function bidMessage(text: { title: string; description: string }) {
  return `${text.title}: ${text.description}`;
}

/** The bid form's messages, as the form shows them under its fields. */
export const BID_MESSAGES = {
  minimum: (minLabel: string) => bidMessage(BID_TEXTS.minimum(minLabel)),
  amountMissing: bidMessage(BID_TEXTS.amountMissing),
  cents: bidMessage(BID_TEXTS.cents),
  tooLarge: bidMessage(BID_TEXTS.tooLarge),
  proxy: bidMessage(BID_TEXTS.proxy),
  funds: bidMessage(BID_TEXTS.funds),
  maxMissing: "Maximum proxy bid is empty: enter the most you will bid, or untick Proxy bid.",
  /** A maximum typed with Proxy bid unticked (no JS) is used, so it too must be above the bid. */
  proxyUnticked: `${bidMessage(BID_TEXTS.proxy)} Leave it empty for a single bid.`,
};

/** What a placed bid tells the bidder, by outcome. */
export const BID_PLACED = {
  leading: {
    title: "Bid Placed Successfully",
    description: "Your bid has been submitted to the auction.",
  },
  outbid: {
    title: "Outbid",
    description: "Your bid was placed, but another bidder's proxy maximum is higher.",
    /** The lot page's longer wording of the same outcome. */
    detail:
      "Your bid was placed, but another bidder's proxy maximum is higher: you were outbid at once.",
  },
  /** The leader's own bid only raises their maximum (docs/decisions/2702). */
  raised: {
    title: "Maximum Raised",
    description:
      "You are still the high bidder. Your new maximum is held for you; the price moves only when another bidder bids.",
  },
} as const;

/** The lot page's wording of a raise, with the figures. */
export function raisedDetail(maxLabel: string, priceLabel: string) {
  return `Your maximum is now ${maxLabel}. You are still the high bidder at ${priceLabel}: the price moves only when another bidder bids.`;
}

/** How often the list and the lot page ask the server for fresh prices and times. */
export const REFRESH_MS = 5000;
