// The browser's upload (docs/decisions/0302-uploads-bound-to-owner.md): ask for an upload URL
// bound to the file's size and type, PUT the file there with progress, confirm it, then submit
// it as the user's document.
import { detectFileType, FILE_PROBLEM_MESSAGES, MAX_DOCUMENT_BYTES } from "~/utils/file-type";

/** The file input of an identity or licence document: what it offers to pick, and its look. */
export const DOCUMENT_FILE_INPUT = {
  accept: ".jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf",
  className:
    "mt-2 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-700",
} as const;

export class UploadFailure extends Error {
  constructor(
    message: string,
    readonly status = 0,
  ) {
    super(message);
  }
}

/** A JSON call of the upload flow; a non-OK answer throws an UploadFailure with its message. */
export async function uploadCall(path: string, method: string, body?: unknown) {
  const response = await fetch(path, {
    method,
    credentials: "include",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    throw new UploadFailure(
      answer?.message ?? `${response.status}: ${response.statusText}`,
      response.status,
    );
  }
  return answer;
}

/** PUTs `file` to a presigned upload URL, reporting progress in percent. */
export function putFile(
  url: string,
  file: File,
  headers: Record<string, string>,
  onProgress: (percent: number) => void,
) {
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300
        ? resolve()
        : reject(new UploadFailure("Failed to upload document. Please try again.", xhr.status));
    xhr.onerror = () =>
      reject(
        new UploadFailure(
          "The upload could not reach the storage server; a firewall or provider may be blocking it.",
        ),
      );
    xhr.send(file);
  });
}

/** A problem the browser can see before sending anything, or null (the server checks again). */
export async function checkFileLocally(file: File | null | undefined): Promise<string | null> {
  if (!file || !file.name) return FILE_PROBLEM_MESSAGES.missing;
  if (file.size === 0) return FILE_PROBLEM_MESSAGES.empty;
  if (file.size > MAX_DOCUMENT_BYTES) return FILE_PROBLEM_MESSAGES.too_large;
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  if (!detectFileType(head)) return FILE_PROBLEM_MESSAGES.type;
  return null;
}

export async function uploadDocument(
  file: File,
  documentType: string,
  onProgress: (percent: number) => void,
) {
  const { uploadURL, headers } = await uploadCall("/api/objects/upload", "POST", {
    size: file.size,
    contentType: file.type,
  });
  await putFile(uploadURL, file, headers ?? { "Content-Type": file.type }, onProgress);
  const { objectPath } = await uploadCall("/api/kyc/document-url", "PUT", {
    documentURL: uploadURL,
  });
  return uploadCall("/api/kyc/documents", "POST", { documentType, documentUrl: objectPath });
}
