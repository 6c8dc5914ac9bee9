import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useRevalidator,
} from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useRef, useState, type FormEvent } from "react";
import { useToast } from "~/components/toaster";
import { checkFileLocally, UploadFailure, uploadDocument } from "~/components/kyc/upload-document";
import { listDocuments, submitDocument } from "~/modules/kyc/kyc.server";
import { KYC_TOASTS } from "~/modules/kyc/messages";
import { isUserError } from "~/utils/user-error";
import { parseUploadForm } from "~/platform/multipart-upload.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/modules/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { discardUpload, objectPathFor } from "~/platform/uploads.server";
import { FILE_PROBLEM_MESSAGES } from "~/utils/file-type";
import { LOGIN_REDIRECT_DELAY_MS } from "~/modules/accounts/sign-in";
import { DOCUMENT_TYPE_VALUES, documentTypeLabel, kycState } from "~/modules/kyc/documents";
import { kycUploadFormSchema } from "~/modules/kyc/schemas";

export const meta: MetaFunction = () => [{ title: "Identity Verification · BidYard" }];

const UPLOADED = KYC_TOASTS.uploaded;
const FAILED_TITLE = KYC_TOASTS.failedTitle;
const FAILED_DESCRIPTION = KYC_TOASTS.failedDescription;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const documents = await listDocuments(user.id);
  return { documents, state: kycState(user.verified, documents) };
}

type ActionErrors = { documentType?: string; file?: string; form?: string };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (user.verified) {
    return redirectWithToast("/kyc-verification", KYC_TOASTS.alreadyVerified);
  }
  await consumeRateLimit(request, "upload", user.id);
  const form = await parseUploadForm(request, { userId: user.id, purpose: "kyc_document" });
  const formData = new FormData();
  for (const [name, value] of Object.entries(form.fields)) formData.set(name, value);
  const submission = parseWithZod(formData, { schema: kycUploadFormSchema });
  const errors: ActionErrors = {};
  if (submission.status !== "success") {
    errors.documentType = submission.error?.documentType?.[0] ?? "Choose a document type.";
  }
  if (form.problem) errors.file = FILE_PROBLEM_MESSAGES[form.problem];
  if (submission.status !== "success" || !form.upload) {
    if (form.upload) await discardUpload(form.upload);
    // storage down is not the person's mistake: 503, with the same place for the message
    return data({ errors }, { status: form.problem === "unavailable" ? 503 : 400 });
  }
  try {
    await submitDocument(user, {
      documentType: submission.value.documentType,
      objectPath: objectPathFor(form.upload.objectKey),
    });
  } catch (error) {
    if (!isUserError(error)) throw error;
    await discardUpload(form.upload);
    return data({ errors: { form: error.message } satisfies ActionErrors }, { status: 400 });
  }
  return redirectWithToast("/kyc-verification", UPLOADED);
}

const STEPS = ["Account Created", "Document Review", "Verified"];

function StepIndicator({ state }: { state: string }) {
  const verified = state === "verified";
  const status = (index: number) => {
    if (index === 0) return "complete";
    if (verified) return "complete";
    if (index === 1 && state === "pending") return "current";
    return "upcoming";
  };
  return (
    <ol aria-label="Verification progress" className="flex items-center gap-2">
      {STEPS.map((label, index) => {
        const s = status(index);
        return (
          <li key={label} className="flex flex-1 items-center gap-2" data-step-status={s}>
            <span
              aria-hidden="true"
              className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
                s === "complete"
                  ? "bg-green-600 text-white"
                  : s === "current"
                    ? "bg-yellow-400 text-slate-900 ring-4 ring-yellow-100"
                    : "bg-slate-200 text-slate-600"
              }`}
            >
              {s === "complete" ? "✓" : index + 1}
            </span>
            <span className="text-xs font-medium sm:text-sm">
              {label}
              <span className="sr-only">
                {s === "complete" ? " (complete)" : s === "current" ? " (in progress)" : ""}
              </span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}

const BADGE: Record<string, string> = {
  approved: "bg-green-100 text-green-800",
  rejected: "bg-red-100 text-red-800",
};

const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

export default function KycVerification() {
  const { documents, state } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const formRef = useRef<HTMLFormElement>(null);
  const [documentType, setDocumentType] = useState<string>("license");
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [clientError, setClientError] = useState<string | null>(null);
  const showToast = useToast();

  const errors: ActionErrors = actionData && "errors" in actionData ? actionData.errors : {};
  const fileError = clientError ?? errors.file ?? errors.form;
  const current = documents[0];
  const submitting = busy || navigation.state === "submitting";

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const input = event.currentTarget.elements.namedItem("file") as HTMLInputElement;
    const file = input.files?.[0];
    setClientError(null);
    const problem = await checkFileLocally(file);
    if (problem) {
      setClientError(problem);
      showToast({ title: FAILED_TITLE, description: problem, type: "error" });
      return;
    }
    setBusy(true);
    setProgress(0);
    try {
      await uploadDocument(file!, documentType, setProgress);
      showToast(UPLOADED);
      formRef.current?.reset();
      revalidator.revalidate();
    } catch (error) {
      if (error instanceof UploadFailure && error.status === 401) {
        showToast({
          title: "Unauthorized",
          description: "You are logged out. Logging in again...",
          type: "error",
        });
        setTimeout(
          () => window.location.assign("/api/login?returnTo=/kyc-verification"),
          LOGIN_REDIRECT_DELAY_MS,
        );
        return;
      }
      const message = error instanceof Error ? error.message : FAILED_DESCRIPTION;
      setClientError(message);
      showToast({ title: FAILED_TITLE, description: FAILED_DESCRIPTION, type: "error" });
      setProgress(null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mx-auto max-w-4xl px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-bold sm:text-3xl">Identity Verification</h1>
      <p className="mt-1 text-slate-600">
        Upload your government-issued ID to complete account verification
      </p>

      <div className="mt-6">
        <StepIndicator state={state} />
      </div>

      {state === "verified" ? (
        <div
          role="status"
          className="mt-6 rounded-lg border border-green-300 bg-green-50 p-4 text-green-900"
        >
          <p className="font-semibold">Verification Complete</p>
          <p className="text-sm">Your identity has been verified successfully!</p>
        </div>
      ) : state === "pending" ? (
        <div
          role="status"
          className="mt-6 rounded-lg border border-yellow-300 bg-yellow-50 p-4 text-yellow-900"
        >
          <p className="font-semibold">Under Review</p>
          <p className="text-sm">
            Your document is being reviewed. This typically takes 24-48 hours.
          </p>
        </div>
      ) : state === "rejected" ? (
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
      ) : null}

      <div className="mt-6 grid gap-6 md:grid-cols-3">
        <div className="md:col-span-2">
          {state !== "verified" ? (
            <section
              aria-labelledby="upload-heading"
              className="rounded-lg border border-slate-200 bg-white p-5"
            >
              <h2 id="upload-heading" className="text-lg font-semibold">
                {state === "rejected" ? "Upload a New Document" : "Upload Document"}
              </h2>
              <Form
                ref={formRef}
                method="post"
                encType="multipart/form-data"
                onSubmit={onSubmit}
                noValidate
                className="mt-4 space-y-5"
              >
                <fieldset>
                  <legend className="text-sm font-medium">Document type</legend>
                  <div className="mt-2 flex flex-wrap gap-2">
                    {DOCUMENT_TYPE_VALUES.map((type) => (
                      <label key={type} className="cursor-pointer">
                        <input
                          type="radio"
                          name="documentType"
                          value={type}
                          checked={documentType === type}
                          onChange={() => setDocumentType(type)}
                          className="peer sr-only"
                        />
                        <span className="inline-block rounded-md border border-slate-300 px-4 py-2 text-sm font-medium capitalize peer-checked:border-brand-700 peer-checked:bg-brand-700 peer-checked:text-white peer-focus-visible:focus-ring">
                          {documentTypeLabel(type)}
                        </span>
                      </label>
                    ))}
                  </div>
                  {errors.documentType ? (
                    <p className="mt-1 text-sm text-red-700">{errors.documentType}</p>
                  ) : null}
                </fieldset>

                <div className="rounded-lg border-2 border-dashed border-slate-300 p-4">
                  <label htmlFor="kyc-file" className="block text-sm font-medium">
                    ID document (1 file, up to 10 MB)
                  </label>
                  <input
                    id="kyc-file"
                    name="file"
                    type="file"
                    accept=".jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf"
                    aria-describedby="kyc-file-help kyc-file-error"
                    aria-invalid={fileError ? true : undefined}
                    className="mt-2 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-700"
                  />
                  <p id="kyc-file-help" className="mt-2 text-xs text-slate-600">
                    Supports JPG, PNG, PDF files up to 10MB
                  </p>
                  <div id="kyc-file-error">
                    {fileError ? (
                      <p role="alert" className="mt-2 text-sm text-red-700">
                        <span className="font-semibold">{FAILED_TITLE}:</span> {fileError}
                      </p>
                    ) : null}
                  </div>
                  {progress !== null ? (
                    <div className="mt-3">
                      <div
                        role="progressbar"
                        aria-label="Upload progress"
                        aria-valuemin={0}
                        aria-valuemax={100}
                        aria-valuenow={progress}
                        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
                      >
                        <div
                          className="h-full bg-brand-600 transition-all"
                          style={{ width: `${progress}%` }}
                        />
                      </div>
                      <p className="mt-1 text-xs text-slate-600">{progress}%</p>
                    </div>
                  ) : null}
                </div>

                {/* aria-disabled, not disabled: a disabled button drops keyboard focus to the
                    page's top while the upload runs. onSubmit ignores a second press. */}
                <button
                  type="submit"
                  aria-disabled={submitting || undefined}
                  className="rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 aria-disabled:opacity-60"
                >
                  {submitting ? "Uploading..." : "Upload Document"}
                </button>
              </Form>
            </section>
          ) : null}

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
                      <p className="font-medium capitalize">
                        {documentTypeLabel(document.documentType)}
                      </p>
                      <p className="text-sm text-slate-600">
                        Uploaded {formatDate(document.createdAt)}
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
        </div>

        <aside className="space-y-6">
          <section
            aria-labelledby="requirements-heading"
            className="rounded-lg border border-slate-200 bg-white p-5"
          >
            <h2 id="requirements-heading" className="font-semibold">
              Requirements
            </h2>
            <ul className="mt-2 list-inside list-disc space-y-1 text-sm text-slate-700">
              <li>Clear, unblurred image</li>
              <li>All corners of the document visible</li>
              <li>No glare or shadows</li>
              <li>Text clearly readable</li>
            </ul>
          </section>
          <section
            aria-labelledby="security-heading"
            className="rounded-lg border border-slate-200 bg-white p-5"
          >
            <h2 id="security-heading" className="font-semibold">
              Security
            </h2>
            <ul className="mt-2 list-inside list-disc space-y-1 text-sm text-slate-700">
              <li>SSL encrypted upload</li>
              <li>Reviewed within 24 hours</li>
              <li>Compliant with regulations</li>
              <li>Your data is securely stored</li>
            </ul>
          </section>
        </aside>
      </div>

      {state === "verified" || state === "pending" ? (
        <div className="mt-8 text-center">
          <Link
            to="/"
            className="inline-flex rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
          >
            {state === "verified" ? "Continue to Dashboard" : "Return to Dashboard"}
          </Link>
        </div>
      ) : null}
    </div>
  );
}
