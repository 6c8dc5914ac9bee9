// Where a person's identity verification stands (docs/decisions/2704): ONE function every page
// asks (dashboard, KYC page, deposit page, lot page and bid dialog), with one label and one
// review-time text. Plain TypeScript for the server and the browser.
import { kycState, type KycDocumentStatus, type KycState } from "./documents";

/** How long a review takes, in the words every page uses (ID documents and provider applications). */
export const REVIEW_TIME = "usually within 24 hours";

export type IdentityStatus = {
  state: KycState;
  /** "Verified", "Under review", "Rejected" or "Not started" (never "Pending" before an upload) */
  label: string;
  /** one sentence on where it stands and what comes next */
  detail: string;
  rejectionReason: string | null;
};

const LABELS: Record<KycState, string> = {
  verified: "Verified",
  pending: "Under review",
  rejected: "Rejected",
  none: "Not started",
};

/**
 * The person's identity status from their verified flag and their current (newest) document.
 * `current` is null when they have sent nothing.
 */
export function identityStatus(
  verified: boolean,
  current: { status: KycDocumentStatus; rejectionReason: string | null } | null | undefined,
): IdentityStatus {
  const state = kycState(verified, current ? [current] : []);
  const detail = {
    verified: "Your identity has been verified.",
    pending: `Your document is being reviewed, ${REVIEW_TIME}.`,
    rejected:
      "Your document was rejected. Please upload a new document that meets our requirements.",
    none: "Upload a government-issued ID to verify your identity.",
  }[state];
  return {
    state,
    label: LABELS[state],
    detail,
    rejectionReason: state === "rejected" ? (current?.rejectionReason ?? null) : null,
  };
}
