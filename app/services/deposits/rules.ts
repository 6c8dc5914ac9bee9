// The deposit rules, in one place for the browser (deposit page, PayPal buttons) and the server
// (bidding, the deposit ledger). Plain TypeScript: no server imports.
import { formatUsd, fromCents } from "~/utils/money";

/** Bidding needs at least this much on deposit. Also the smallest deposit one can pay in. */
export const MIN_DEPOSIT_CENTS = 400_00;
/** The same minimum as a decimal string, "400.00". */
export const MINIMUM_DEPOSIT = fromCents(MIN_DEPOSIT_CENTS);

/** The most one payment can deposit. */
export const MAX_DEPOSIT_CENTS = 100_000_00;
export const MAXIMUM_DEPOSIT = fromCents(MAX_DEPOSIT_CENTS);

export const DEPOSIT_PRESETS = [
  { amount: MINIMUM_DEPOSIT, label: "$400", note: "Minimum" },
  { amount: "1000.00", label: "$1,000", note: "Popular" },
  { amount: "2500.00", label: "$2,500", note: "Premium" },
] as const;

export const DEPOSIT_MESSAGES = {
  required: "Enter an amount.",
  notANumber: "Enter an amount in dollars, like 400.00.",
  decimals: "Use at most two decimal places.",
  minimum: "Minimum deposit is $400.",
  maximum: "The most you can deposit at once is $100,000.00.",
  refundAboveZero: "Enter an amount above $0.00.",
  unknownOrder: "Unknown payment order",
  /** The provider failed while confirming (capturing) a deposit. */
  confirmFailed: "Failed to confirm deposit. Please try again.",
  /** The provider failed while starting a payment. */
  startFailed: "Failed to start the payment. Please try again.",
  /** The provider's browser SDK could not be set up. */
  setupFailed: "PayPal is unavailable. Please try again.",
} as const;

/**
 * What a credited deposit tells the payer. Shown once: the return from the provider answers with
 * it as a flash toast (a reload of /deposit shows nothing), the PayPal buttons show it in place.
 */
export const DEPOSIT_SUCCESS = {
  title: "Deposit Successful",
  description: "Your deposit has been added to your account!",
  type: "success",
} as const;

/**
 * Why part of a balance cannot be refunded now, one sentence per reason: money held by bids and
 * unpaid invoices (their whole totals: record 3510), and money no provider capture backs (an
 * adjustment: only support can pay it out). Amounts are decimal strings.
 */
export function refundReasons({ held, unbacked }: { held: string; unbacked: string }) {
  const reasons: string[] = [];
  if (held !== "0.00") {
    reasons.push(
      `${formatUsd(held)} is held by your leading bids and unpaid invoices (bid and fees) until they settle.`,
    );
  }
  if (unbacked !== "0.00") {
    reasons.push(
      `${formatUsd(unbacked)} was added by an adjustment and cannot be refunded through the payment provider; contact support.`,
    );
  }
  return reasons;
}

/** A refund above what can go back: the most that can, and why. */
export function refundLimitMessage(most: string, reason: "held" | "unbacked") {
  return reason === "held"
    ? `You can refund at most ${formatUsd(most)}: the rest is held by your bids and purchases.`
    : `You can refund at most ${formatUsd(most)}: the rest was added by an adjustment and cannot be refunded through the payment provider; contact support.`;
}

/** Where a refund goes, in words, from the providers of the payments it goes back against. */
export function refundDestination(providers: string[]) {
  const kinds = new Set(providers);
  if (kinds.size === 1 && kinds.has("test"))
    return "the test payment you made (TEST MODE: no real money moves)";
  if (kinds.has("test")) return "the PayPal account and the test payment you paid with";
  return "the PayPal account you paid with";
}

/** "the PayPal payment" or "the test payment", for one part of a refund. */
export function paymentLabel(provider: string) {
  return provider === "test" ? "test payment" : "PayPal payment";
}

/** True when a deposit balance is enough to bid. */
export function canBidWith(depositCents: number) {
  return depositCents >= MIN_DEPOSIT_CENTS;
}
