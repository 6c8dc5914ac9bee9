import type { KycState, PublicKycDocument } from "~/services/kyc/documents";

/** Where the person stands, above the form: verified, under review, or rejected with the reason. */
export function StatusBanner({
  state,
  current,
}: {
  state: KycState;
  current: PublicKycDocument | undefined;
}) {
  if (state === "verified")
    return (
      <div
        role="status"
        className="mt-6 rounded-lg border border-green-300 bg-green-50 p-4 text-green-900"
      >
        <p className="font-semibold">Verification Complete</p>
        <p className="text-sm">Your identity has been verified successfully!</p>
      </div>
    );
  if (state === "pending")
    return (
      <div
        role="status"
        className="mt-6 rounded-lg border border-yellow-300 bg-yellow-50 p-4 text-yellow-900"
      >
        <p className="font-semibold">Under Review</p>
        <p className="text-sm">
          Your document is being reviewed. This typically takes 24-48 hours.
        </p>
      </div>
    );
  if (state === "rejected")
    return (
      <div
        role="alert"
        className="mt-6 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
      >
        <p className="font-semibold">Document Rejected</p>
        <p className="text-sm">Please upload a new document that meets our requirements.</p>
        {current?.rejectionReason ? (
          <p className="mt-1 text-sm">
            <span className="font-medium">Reason:</span> {current.rejectionReason}
          </p>
        ) : null}
      </div>
    );
  return null;
}
