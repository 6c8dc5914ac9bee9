// Reads a no-JS multipart form post: small text fields in memory, the one file streamed to
// storage through the upload checks (hard cap, content sniffing). Nothing buffers a whole file.
import type { UploadHandler } from "@remix-run/node";
import { parseMultipartBody } from "~/http/multipart-body.server";
import type { Upload } from "~/models/upload.server";
import type { FileProblem } from "~/utils/file-type";
import { isUnsafeFileName } from "./file-safety.server";
import {
  storeStreamedUpload,
  UPLOAD_POLICIES,
  UploadError,
  type UploadPurpose,
} from "./uploads.server";
import { cleanField } from "~/utils/clean-text";
import { readForm } from "~/http/form-body.server";

const MAX_TEXT_FIELD_BYTES = 2_000;

export type UploadForm = {
  fields: Record<string, string>;
  upload: Upload | null;
  problem: FileProblem | null;
};

/** Reads what is left of a part without keeping it, so the browser gets our answer; gives up past `limit`. */
export async function drainPart(iterator: AsyncIterator<Uint8Array>, limit: number) {
  let total = 0;
  for (;;) {
    const { value, done } = await iterator.next();
    if (done) return;
    total += value.byteLength;
    if (total > limit) throw new Response("Request body too large", { status: 413 });
  }
}

/**
 * A part's bytes in memory, at most `maxBytes` of them; null when the part is longer (what is left
 * of it is unread: drain it, or answer 413).
 */
export async function readPartUpTo(
  iterator: AsyncIterator<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await iterator.next();
    if (done) return new Uint8Array(Buffer.concat(chunks));
    size += value.byteLength;
    if (size > maxBytes) return null;
    chunks.push(value);
  }
}

export async function parseUploadForm(
  request: Request,
  options: { userId: string; purpose: UploadPurpose; fileField?: string },
): Promise<UploadForm> {
  const fileField = options.fileField ?? "file";
  const result: UploadForm = { fields: {}, upload: null, problem: null };
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.startsWith("multipart/form-data")) {
    for (const [name, value] of await readForm(request)) {
      if (typeof value === "string") result.fields[name] = cleanField(name, value);
    }
    result.problem = "missing";
    return result;
  }
  const drainLimit = UPLOAD_POLICIES[options.purpose].maxBytes * 3;

  const handler: UploadHandler = async ({ name, filename, contentType: partType, data }) => {
    const iterator = data[Symbol.asyncIterator]();
    // Our own view of the part that never closes it, so a refused file can still be drained.
    const part = { [Symbol.asyncIterator]: () => ({ next: () => iterator.next() }) };
    if (!filename) {
      const bytes = await readPartUpTo(iterator, MAX_TEXT_FIELD_BYTES);
      if (!bytes) {
        await drainPart(iterator, drainLimit);
        return undefined;
      }
      if (name !== fileField)
        result.fields[name] = cleanField(name, Buffer.from(bytes).toString("utf8"));
      return undefined;
    }
    if (name !== fileField || result.upload || result.problem) {
      await drainPart(iterator, drainLimit);
      return undefined;
    }
    if (isUnsafeFileName(filename)) {
      // Object keys never come from names, but a path in a name is an attack, not a file.
      result.problem = "name";
      await drainPart(iterator, drainLimit);
      return undefined;
    }
    try {
      result.upload = await storeStreamedUpload(options.userId, options.purpose, part, partType);
    } catch (error) {
      if (!(error instanceof UploadError) || !error.problem) throw error;
      result.problem = error.problem;
      await drainPart(iterator, drainLimit);
    }
    return undefined;
  };

  await parseMultipartBody(request, handler);
  if (!result.upload && !result.problem) result.problem = "missing";
  return result;
}
