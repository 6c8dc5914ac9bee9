// The optional licence/business document. Without JS it is a plain file field of the multipart
// form; with JS the file goes straight to storage (with progress) and the form carries its path.
import { useRef, useState } from "react";
import {
  checkFileLocally,
  DOCUMENT_FILE_INPUT,
  putFile,
  uploadCall,
  UploadFailure,
} from "~/components/kyc/upload-document";
import { FieldMessage } from "~/components/field-message";
import { UploadProgress } from "~/components/kyc/upload-progress";
import { LICENCE_FAILED, LICENCE_REFUSED, LICENCE_UPLOADED } from "~/services/affiliates/messages";
import { LICENCE_UPLOAD_PURPOSE } from "~/services/affiliates/rules";
import { useHydrated } from "~/utils/use-hydrated";
import { labelClass } from "./ui";

async function uploadLicence(file: File, onProgress: (p: number) => void): Promise<string> {
  const { uploadURL, headers } = await uploadCall("/api/objects/upload", "POST", {
    size: file.size,
    contentType: file.type,
    purpose: LICENCE_UPLOAD_PURPOSE,
  });
  await putFile(uploadURL, file, headers ?? { "Content-Type": file.type }, onProgress);
  const { objectPath } = await uploadCall("/api/affiliates/document-url", "PUT", {
    documentURL: uploadURL,
  });
  return objectPath;
}

/** A refusal no retry can change (the file's size, type or content), not a passing fault. */
function isPermanent(error: unknown) {
  return (
    error instanceof UploadFailure &&
    error.status >= 400 &&
    error.status < 500 &&
    ![401, 403, 408, 429].includes(error.status)
  );
}

type LicenceState =
  | { kind: "none" }
  | { kind: "uploading"; percent: number }
  | { kind: "uploaded"; objectPath: string }
  | { kind: "failed"; text: string; detail?: string };

/**
 * With JS the chosen file uploads at once. While it is on its way, or when it failed, the form
 * carries `licenseDocumentState` and the schema holds the application back until a document is
 * there or the choice is removed (docs/decisions/2803). A file that can never pass says why,
 * without "try again".
 */
export function LicenceUpload({ serverError }: { serverError?: string[] }) {
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<LicenceState>({ kind: "none" });
  // A new choice answers the last refusal: it stays hidden until the form is checked again.
  const [answered, setAnswered] = useState<string[] | undefined>();

  async function onChange(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    setAnswered(serverError);
    if (!file) return setState({ kind: "none" });
    const problem = await checkFileLocally(file);
    if (problem) return setState({ kind: "failed", text: LICENCE_REFUSED, detail: problem });
    setState({ kind: "uploading", percent: 0 });
    try {
      const objectPath = await uploadLicence(file, (percent) =>
        setState({ kind: "uploading", percent }),
      );
      setState({ kind: "uploaded", objectPath });
    } catch (error) {
      setState({
        kind: "failed",
        text: isPermanent(error) ? LICENCE_REFUSED : LICENCE_FAILED,
        detail: error instanceof Error ? error.message : undefined,
      });
    }
  }

  function remove() {
    setAnswered(serverError);
    if (input.current) input.current.value = "";
    setState({ kind: "none" });
    input.current?.focus();
  }

  return (
    <div className="rounded-lg border-2 border-dashed border-slate-300 p-4">
      <label htmlFor="licence-document" className={labelClass}>
        Licence or business document (optional)
      </label>
      <input
        ref={input}
        id="licence-document"
        type="file"
        // without JS the file travels with the form; with JS only its stored path does
        name={hydrated ? undefined : "licenseDocument"}
        onChange={hydrated ? onChange : undefined}
        accept={DOCUMENT_FILE_INPUT.accept}
        aria-describedby="licence-document-help licence-document-error"
        aria-invalid={
          state.kind === "failed" || (serverError?.length && serverError !== answered)
            ? true
            : undefined
        }
        className={DOCUMENT_FILE_INPUT.className}
      />
      <input
        type="hidden"
        name="licenseDocumentUrl"
        value={state.kind === "uploaded" ? state.objectPath : ""}
      />
      {state.kind === "failed" || state.kind === "uploading" ? (
        <input type="hidden" name="licenseDocumentState" value={state.kind} />
      ) : null}
      <p id="licence-document-help" className="mt-2 text-xs text-slate-600">
        1 file, PDF, JPG or PNG, up to 10 MB.
      </p>
      {state.kind === "uploading" ? <UploadProgress percent={state.percent} /> : null}
      <div id="licence-document-error">
        {state.kind === "uploaded" ? (
          <p role="status" className="mt-2 text-sm text-green-700">
            {LICENCE_UPLOADED}
          </p>
        ) : null}
        {state.kind === "failed" ? (
          <div className="mt-2 flex flex-wrap items-start gap-x-3 gap-y-1">
            <p role="alert" className="text-sm text-red-700">
              {state.text}
              {state.detail ? ` ${state.detail}` : ""}
            </p>
            <button
              type="button"
              onClick={remove}
              className="text-sm font-semibold text-brand-700 underline"
            >
              Remove this file
            </button>
          </div>
        ) : null}
        <FieldMessage
          id="licence-document-server-error"
          errors={serverError === answered ? undefined : serverError}
        />
      </div>
    </div>
  );
}
