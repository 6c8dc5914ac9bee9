// The upload form. Without JS it posts the file to this page (multipart); with JS the file goes
// straight to storage with progress (app/components/kyc/upload-document.ts) and the page reloads.
import { Form, useNavigation, useRevalidator } from "@remix-run/react";
import { useRef, useState, type FormEvent } from "react";
import {
  checkFileLocally,
  DOCUMENT_FILE_INPUT,
  UploadFailure,
  uploadDocument,
} from "~/components/kyc/upload-document";
import { UploadProgress } from "~/components/kyc/upload-progress";
import { useToast } from "~/components/toaster";
import { LOGIN_REDIRECT_DELAY_MS } from "~/services/accounts/sign-in";
import { DOCUMENT_TYPE_VALUES, documentTypeLabel, type KycState } from "~/services/kyc/documents";
import { KYC_TOASTS } from "~/services/kyc/messages";
import { JUST_SENT_KEY } from "./under-review";

/** What the no-JS post answers when it refuses: one message per place on the form. */
export type KycActionErrors = { documentType?: string; file?: string; form?: string };

export function UploadForm({ state, errors }: { state: KycState; errors: KycActionErrors }) {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const formRef = useRef<HTMLFormElement>(null);
  const [documentType, setDocumentType] = useState<string>("license");
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [clientError, setClientError] = useState<string | null>(null);
  const showToast = useToast();

  const fileError = clientError ?? errors.file ?? errors.form;
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
      showToast({ title: KYC_TOASTS.failedTitle, description: problem, type: "error" });
      return;
    }
    setBusy(true);
    setProgress(0);
    try {
      await uploadDocument(file!, documentType, setProgress);
      showToast(KYC_TOASTS.uploaded);
      // The bar goes with the file: nothing is left reading "100%" beside an empty file field;
      // the page then shows the document under review in place of this form (record 3333).
      formRef.current?.reset();
      setProgress(null);
      sessionStorage.setItem(JUST_SENT_KEY, "1");
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
      setClientError(error instanceof Error ? error.message : KYC_TOASTS.failedDescription);
      showToast({
        title: KYC_TOASTS.failedTitle,
        description: KYC_TOASTS.failedDescription,
        type: "error",
      });
      setProgress(null);
    } finally {
      setBusy(false);
    }
  }

  return (
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
                <span className="inline-block rounded-md border border-slate-300 px-4 py-2 text-sm font-medium peer-checked:border-brand-700 peer-checked:bg-brand-700 peer-checked:text-white peer-focus-visible:focus-ring">
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
            accept={DOCUMENT_FILE_INPUT.accept}
            aria-describedby="kyc-file-help kyc-file-error"
            aria-invalid={fileError ? true : undefined}
            className={DOCUMENT_FILE_INPUT.className}
          />
          <p id="kyc-file-help" className="mt-2 text-xs text-slate-600">
            Supports JPG, PNG, PDF files up to 10MB
          </p>
          <div id="kyc-file-error">
            {fileError ? (
              <p role="alert" className="mt-2 text-sm text-red-700">
                <span className="font-semibold">{KYC_TOASTS.failedTitle}:</span> {fileError}
              </p>
            ) : null}
          </div>
          {progress !== null ? <UploadProgress percent={progress} showPercent /> : null}
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
  );
}
