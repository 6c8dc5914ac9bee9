// Where a person stands as a service provider (docs/decisions/2704): ONE function the job board,
// an order's page and the application page ask, so no page offers a "Claim Job" its viewer
// cannot use. claimOrder checks the same on the server. Plain TypeScript.
import { REVIEW_TIME } from "~/services/kyc/status";

export type ProviderState = "none" | "pending" | "approved" | "rejected";

export type ProviderStatus = {
  state: ProviderState;
  /** the board's badge: "Approved Affiliate", "Pending Approval", "Not Approved", or null */
  label: string | null;
  canClaim: boolean;
  /** why this person cannot claim jobs, or null when they can */
  reason: string | null;
};

/** From the person's affiliate application (null when they never applied). */
export function providerStatus(application: { status: string } | null | undefined): ProviderStatus {
  switch (application?.status) {
    case "approved":
      return { state: "approved", label: "Approved Affiliate", canClaim: true, reason: null };
    case "pending":
      return {
        state: "pending",
        label: "Pending Approval",
        canClaim: false,
        reason: `Your provider application is under review (${REVIEW_TIME}). You can claim jobs once it is approved.`,
      };
    case "rejected":
      return {
        state: "rejected",
        label: "Not Approved",
        canClaim: false,
        reason: "Your provider application was not approved. Apply again to claim jobs.",
      };
    default:
      return {
        state: "none",
        label: null,
        canClaim: false,
        reason: "Only approved service providers can claim jobs.",
      };
  }
}

/** Why the viewer cannot claim an open order, or null when they can. */
export function claimBlocker(
  provider: ProviderStatus,
  order: { requestedByMe: boolean },
): string | null {
  if (order.requestedByMe)
    return "This is your own transport request: an approved provider will claim it from the board.";
  return provider.reason;
}
