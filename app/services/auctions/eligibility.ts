// May this person bid, and if not, why (docs/decisions/2704): ONE function the deposit page, the
// dashboard, the lot page and the list's bid dialog all ask, built on the identity status so an
// ID under review reads as under review everywhere. place_bid checks the same rules again under
// the lot lock. Plain TypeScript for the server and the browser.
import { MIN_DEPOSIT_CENTS, canBidWith } from "~/services/deposits/rules";
import { formatUsd } from "~/utils/money";
import { REVIEW_TIME, type IdentityStatus } from "~/services/kyc/status";
import { BID_TEXTS, type BidderNeed } from "./rules";

export type EligibilityReason = {
  need: BidderNeed;
  title: string;
  description: string;
  link: { to: string; label: string };
};

export type BiddingEligibility = {
  canBid: boolean;
  /**
   * "Bidding Enabled", else "Minimum Deposit Required: add $N" (the spec's badge with the amount
   * missing, docs/decisions/3306), else where the ID
   * stands ("ID Under Review", "Verification Required")
   */
  label: string;
  /** every step still missing, in the order to take them (verification, then the deposit) */
  reasons: EligibilityReason[];
};

function verificationReason(identity: IdentityStatus): EligibilityReason {
  switch (identity.state) {
    case "pending":
      return {
        need: "verification",
        title: BID_TEXTS.verification.title,
        description: `Your ID is under review (${REVIEW_TIME}). You can bid once it is approved.`,
        link: { to: "/kyc-verification", label: "See your verification" },
      };
    case "rejected":
      return {
        need: "verification",
        title: BID_TEXTS.verification.title,
        description: "Your ID document was rejected. Upload a new one to bid.",
        link: { to: "/kyc-verification", label: "Upload a new document" },
      };
    default:
      return {
        need: "verification",
        ...BID_TEXTS.verification,
        link: { to: "/kyc-verification", label: "Verify your identity" },
      };
  }
}

/** The spec's badge with the amount still missing: "Minimum Deposit Required: add $400.00". */
export function minimumDepositLabel(depositCents: number) {
  return `Minimum Deposit Required: add ${formatUsd(missingDepositCents(depositCents), "cents")}`;
}

/** What a deposit lacks to reach the minimum to bid, in cents (0 once it does). */
export function missingDepositCents(depositCents: number) {
  return Math.max(0, MIN_DEPOSIT_CENTS - depositCents);
}

/** Whether a person with this identity status and deposit (in cents) may bid, and why not. */
export function biddingEligibility(
  identity: IdentityStatus,
  depositCents: number,
): BiddingEligibility {
  const reasons: EligibilityReason[] = [];
  if (identity.state !== "verified") reasons.push(verificationReason(identity));
  if (!canBidWith(depositCents)) {
    reasons.push({
      need: "deposit",
      ...BID_TEXTS.deposit,
      link: { to: "/deposit", label: "Make a deposit" },
    });
  }
  const label =
    reasons.length === 0
      ? "Bidding Enabled"
      : reasons.some((reason) => reason.need === "deposit")
        ? minimumDepositLabel(depositCents)
        : identity.state === "pending"
          ? "ID Under Review"
          : "Verification Required";
  return { canBid: reasons.length === 0, label, reasons };
}
