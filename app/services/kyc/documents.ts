// The identity documents a person may send and how their review reads, as plain data the browser
// and the server share. Review rules (one pending document at a time, the newest is the current
// one, a decision is final) are in docs/decisions/0303-kyc-review-rules.md.

export const DOCUMENT_TYPE_VALUES = ["license", "passport", "state_id"] as const;
export type KycDocumentType = (typeof DOCUMENT_TYPE_VALUES)[number];

export type KycDocumentStatus = "pending" | "approved" | "rejected";

/**
 * How a document type reads on screen, the same words everywhere (the form, the history, the
 * admin's review): "Driver's license", "Passport", "State ID" (record 3333).
 */
export const DOCUMENT_TYPE_LABELS: Record<KycDocumentType, string> = {
  license: "Driver's license",
  passport: "Passport",
  state_id: "State ID",
};

export const documentTypeLabel = (type: string) =>
  DOCUMENT_TYPE_LABELS[type as KycDocumentType] ?? type.replace(/_/g, " ");

/** Where a person stands: verified, or their current document's review, or nothing sent yet. */
export type KycState = "verified" | "pending" | "rejected" | "none";

export type PublicKycDocument = {
  id: string;
  documentType: KycDocumentType;
  documentUrl: string;
  status: KycDocumentStatus;
  rejectionReason: string | null;
  createdAt: string;
  reviewedAt: string | null;
};

export type PendingKycDocument = PublicKycDocument & {
  user: { id: string; firstName: string | null; lastName: string | null; email: string };
  viewUrl: string;
  /** The stored file's type (image/jpeg, image/png, application/pdf): how the review shows it. */
  contentType: string;
};

/** Where the user stands: verified, or the current (newest) document's status, or nothing yet. */
export function kycState(
  verified: boolean,
  documents: ReadonlyArray<{ status: KycDocumentStatus }>,
): KycState {
  if (verified) return "verified";
  const current = documents[0];
  if (!current) return "none";
  return current.status === "rejected"
    ? "rejected"
    : current.status === "pending"
      ? "pending"
      : "none";
}
