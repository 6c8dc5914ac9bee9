import type { IdentityStatus } from "~/services/kyc/status";

/**
 * Where the person stands, above the form, in the words every page uses (services/kyc/status.ts):
 * verified, under review (with the one review time), rejected with the reason, or not started.
 */
export function StatusBanner({ identity }: { identity: IdentityStatus }) {
  if (identity.state === "verified")
    return (
      <div
        role="status"
        className="mt-6 rounded-lg border border-green-300 bg-green-50 p-4 text-green-900"
      >
        <p className="font-semibold">Verification Complete</p>
        <p className="text-sm">Your identity has been verified successfully!</p>
      </div>
    );
  if (identity.state === "pending")
    return (
      <div
        role="status"
        className="mt-6 rounded-lg border border-yellow-300 bg-yellow-50 p-4 text-yellow-900"
      >
        <p className="font-semibold">Under Review</p>
        <p className="text-sm">{identity.detail}</p>
      </div>
    );
  if (identity.state === "rejected")
    return (
      <div
        role="alert"
        className="mt-6 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
      >
        <p className="font-semibold">Document Rejected</p>
        <p className="text-sm">{identity.detail}</p>
        {identity.rejectionReason ? (
          <p className="mt-1 text-sm">
            <span className="font-medium">Reason:</span> {identity.rejectionReason}
          </p>
        ) : null}
      </div>
    );
  return (
    <div
      role="status"
      className="mt-6 rounded-lg border border-slate-300 bg-white p-4 text-slate-800"
    >
      <p className="font-semibold">{identity.label}</p>
      <p className="text-sm">{identity.detail}</p>
    </div>
  );
}
