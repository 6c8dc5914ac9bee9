// The optional licence/business document. Without JS it is a plain file field of the multipart
// form; with JS the file goes straight to storage (with progress) and the form carries its path.
import { useEffect, useState } from "react";
import {
  checkFileLocally,
  DOCUMENT_FILE_INPUT,
  putFile,
  uploadCall,
} from "~/components/kyc/upload-document";
import { UploadProgress } from "~/components/kyc/upload-progress";
import { LICENCE_FAILED, LICENCE_UPLOADED } from "~/services/affiliates/messages";
import { LICENCE_UPLOAD_PURPOSE } from "~/services/affiliates/rules";
import { FieldError, labelClass } from "./ui";

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

export function LicenceUpload({ serverError }: { serverError?: string[] }) {
  const [hydrated, setHydrated] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [objectPath, setObjectPath] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string; detail?: string } | null>(
    null,
  );
  useEffect(() => setHydrated(true), []);

  async function onChange(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    setObjectPath("");
    setMessage(null);
    if (!file) return;
    const problem = await checkFileLocally(file);
    if (problem) {
      setMessage({ ok: false, text: LICENCE_FAILED, detail: problem });
      return;
    }
    setProgress(0);
    try {
      setObjectPath(await uploadLicence(file, setProgress));
      setMessage({ ok: true, text: LICENCE_UPLOADED });
    } catch (error) {
      setProgress(null);
      setMessage({
        ok: false,
        text: LICENCE_FAILED,
        detail: error instanceof Error ? error.message : undefined,
      });
    }
  }

  return (
    <div className="rounded-lg border-2 border-dashed border-slate-300 p-4">
      <label htmlFor="licence-document" className={labelClass}>
        Licence or business document (optional)
      </label>
      <input
        id="licence-document"
        type="file"
        // without JS the file travels with the form; with JS only its stored path does
        name={hydrated ? undefined : "licenseDocument"}
        onChange={hydrated ? onChange : undefined}
        accept={DOCUMENT_FILE_INPUT.accept}
        aria-describedby="licence-document-help licence-document-error"
        className={DOCUMENT_FILE_INPUT.className}
      />
      <input type="hidden" name="licenseDocumentUrl" value={objectPath} />
      <p id="licence-document-help" className="mt-2 text-xs text-slate-600">
        1 file, PDF, JPG or PNG, up to 10 MB.
      </p>
      {progress !== null && !message?.ok ? <UploadProgress percent={progress} /> : null}
      <div id="licence-document-error">
        {message ? (
          <p
            role={message.ok ? "status" : "alert"}
            className={`mt-2 text-sm ${message.ok ? "text-green-700" : "text-red-700"}`}
          >
            {message.text}
            {message.detail ? ` ${message.detail}` : ""}
          </p>
        ) : (
          <FieldError id="licence-document-server-error" errors={serverError} />
        )}
      </div>
    </div>
  );
}
