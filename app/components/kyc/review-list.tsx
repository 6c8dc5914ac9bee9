import { Form } from "@remix-run/react";
import { LocalTime } from "~/components/local-time";
import { documentTypeLabel, type PendingKycDocument } from "~/services/kyc/documents";

type Row = Omit<PendingKycDocument, "createdAt"> & { createdAt: string | Date };

/**
 * Pending identity documents, each shown beside its Approve and Reject-with-reason forms: an image
 * inline, a PDF as a labelled link (record 3331). Both load through the document's /objects path,
 * which checks the admin and answers with a short-lived signed URL.
 */
export function KycReviewList({
  documents,
  redirectTo,
}: {
  documents: Row[];
  redirectTo?: string;
}) {
  return (
    <>
      {documents.length === 0 ? (
        <p className="mt-6 rounded-lg border border-slate-200 bg-white p-5">
          No documents are waiting for review.
        </p>
      ) : (
        <ul className="mt-6 space-y-4">
          {documents.map((document) => {
            const name =
              [document.user.firstName, document.user.lastName].filter(Boolean).join(" ") ||
              document.user.email;
            return (
              <li
                key={document.id}
                aria-label={`${name}, ${documentTypeLabel(document.documentType)}`}
                className="rounded-lg border border-slate-200 bg-white p-4"
              >
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <p className="font-semibold">{name}</p>
                    <p className="text-sm text-slate-600">{document.user.email}</p>
                    <p className="mt-1 text-sm">
                      <span>{documentTypeLabel(document.documentType)}</span> · submitted{" "}
                      <LocalTime at={document.createdAt} />
                    </p>
                  </div>
                  <span className="rounded-full bg-yellow-100 px-2.5 py-0.5 text-xs font-semibold text-yellow-800">
                    pending
                  </span>
                </div>
                <div className="mt-3 grid gap-4 md:grid-cols-[minmax(0,22rem)_1fr]">
                  <DocumentPreview document={document} name={name} />
                  <div className="flex flex-wrap content-start items-end gap-3">
                    <Form method="post" action="/admin/kyc/review">
                      <input type="hidden" name="documentId" value={document.id} />
                      {redirectTo ? (
                        <input type="hidden" name="redirectTo" value={redirectTo} />
                      ) : null}
                      <button
                        type="submit"
                        name="intent"
                        value="approve"
                        className="rounded-md bg-green-700 px-3 py-2 text-sm font-semibold text-white hover:bg-green-800"
                      >
                        Approve<span className="sr-only"> {name}</span>
                      </button>
                    </Form>
                    <Form
                      method="post"
                      action="/admin/kyc/review"
                      className="flex flex-wrap items-end gap-2"
                    >
                      <input type="hidden" name="documentId" value={document.id} />
                      {redirectTo ? (
                        <input type="hidden" name="redirectTo" value={redirectTo} />
                      ) : null}
                      <div>
                        <label
                          htmlFor={`reason-${document.id}`}
                          className="block text-xs font-medium"
                        >
                          Reason for rejection
                        </label>
                        <input
                          id={`reason-${document.id}`}
                          name="reason"
                          type="text"
                          className="mt-1 w-64 max-w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm"
                        />
                      </div>
                      <button
                        type="submit"
                        name="intent"
                        value="reject"
                        className="rounded-md bg-red-700 px-3 py-2 text-sm font-semibold text-white hover:bg-red-800"
                      >
                        Reject<span className="sr-only"> {name}</span>
                      </button>
                    </Form>
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

/**
 * The document beside its decision. An image is shown inline (img-src allows this site and the
 * storage origin); a PDF is not embedded: stored files are served sandboxed and unframeable, and
 * a browser's PDF viewer does not run in a sandbox, so it gets a plain link instead (record 3331).
 */
function DocumentPreview({ document, name }: { document: Row; name: string }) {
  const type = documentTypeLabel(document.documentType);
  if (document.contentType.startsWith("image/")) {
    return (
      <figure className="rounded-md border border-slate-200 bg-slate-50 p-2">
        <a href={document.viewUrl} target="_blank" rel="noreferrer" className="block">
          <img
            src={document.viewUrl}
            alt={`${type} of ${name}`}
            loading="lazy"
            className="max-h-80 w-full rounded object-contain"
          />
        </a>
        <figcaption className="mt-1 text-xs text-slate-600">
          <a
            href={document.viewUrl}
            target="_blank"
            rel="noreferrer"
            className="font-semibold text-brand-700 underline"
          >
            View full size<span className="sr-only"> document of {name}</span>
          </a>{" "}
          (opens in a new tab)
        </figcaption>
      </figure>
    );
  }
  return (
    <div className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
      <p className="font-semibold">PDF document</p>
      <p className="mt-1 text-slate-600">
        A PDF is not previewed on this page. Open it, check every page, then decide here.
      </p>
      <a
        href={document.viewUrl}
        target="_blank"
        rel="noreferrer"
        className="mt-2 inline-block rounded-md border border-slate-300 bg-white px-3 py-2 font-medium hover:bg-slate-50"
      >
        View PDF<span className="sr-only"> document of {name}</span>
      </a>
    </div>
  );
}
