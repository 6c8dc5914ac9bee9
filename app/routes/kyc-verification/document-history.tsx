import { LocalTime } from "~/components/local-time";
import { documentTypeLabel, type PublicKycDocument } from "~/services/kyc/documents";

const BADGE: Record<string, string> = {
  approved: "bg-green-100 text-green-800",
  rejected: "bg-red-100 text-red-800",
};

/** Every document the person has sent, newest (the current one) first. */
export function DocumentHistory({ documents }: { documents: PublicKycDocument[] }) {
  return (
    <section
      aria-labelledby="history-heading"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h2 id="history-heading" className="text-lg font-semibold">
        Document History
      </h2>
      {documents.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No documents uploaded yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {documents.map((document) => (
            <li
              key={document.id}
              className="flex flex-wrap items-center justify-between gap-2 py-3"
            >
              <div>
                <p className="font-medium">{documentTypeLabel(document.documentType)}</p>
                <p className="text-sm text-slate-600">
                  Uploaded <LocalTime at={document.createdAt} />
                </p>
                {document.status === "rejected" && document.rejectionReason ? (
                  <p className="text-sm text-red-700">Reason: {document.rejectionReason}</p>
                ) : null}
              </div>
              <div className="flex items-center gap-3">
                <a href={document.documentUrl} className="text-sm text-brand-700 underline">
                  View
                  <span className="sr-only"> {documentTypeLabel(document.documentType)}</span>
                </a>
                <span
                  className={`rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ${
                    BADGE[document.status] ?? "bg-yellow-100 text-yellow-800"
                  }`}
                >
                  {document.status}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
