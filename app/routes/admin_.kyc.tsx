import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { PageToast } from "~/components/kyc/page-toast";
import { listPendingDocuments } from "~/services/kyc.server";
import { requireAdmin } from "~/services/session.server";
import { documentTypeLabel } from "~/utils/schemas/kyc";

export const meta: MetaFunction = () => [{ title: "KYC Review · Admin · BidYard" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { documents: await listPendingDocuments() };
}

const formatDate = (iso: string) =>
  new Date(iso).toLocaleString("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  });

export default function AdminKycReview() {
  const { documents } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-5xl px-3 py-8 sm:px-6">
      <PageToast />
      <h1 className="text-2xl font-bold">KYC Review</h1>
      <p className="mt-1 text-slate-600">
        {documents.length} pending {documents.length === 1 ? "document" : "documents"}
      </p>
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
                      <span className="capitalize">{documentTypeLabel(document.documentType)}</span>{" "}
                      · submitted {formatDate(document.createdAt)}
                    </p>
                  </div>
                  <span className="rounded-full bg-yellow-100 px-2.5 py-0.5 text-xs font-semibold text-yellow-800">
                    pending
                  </span>
                </div>
                <div className="mt-3 flex flex-wrap items-end gap-3">
                  <a
                    href={document.viewUrl}
                    target="_blank"
                    rel="noreferrer"
                    className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50"
                  >
                    View<span className="sr-only"> document of {name}</span>
                  </a>
                  <Form method="post" action="/admin/kyc/review">
                    <input type="hidden" name="documentId" value={document.id} />
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
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
