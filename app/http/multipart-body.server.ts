// Reads a multipart body with Remix's streaming parser, each part to `handler`. A body that is not
// well-formed multipart (cut off before its closing boundary, a part without its headers) is the
// client's mistake: a 400, not the parser's Error, which answered 500 (docs/decisions/3206).
// A body of more parts than any of our forms has is a 413 at the first part past the cap, before
// the rest is parsed (docs/decisions/3413). Any other error (storage, sharp) passes through.
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { jsonError, wantsJson } from "./http.server";

export const MULTIPART_UNREADABLE = "The form could not be read";
export const MULTIPART_TOO_MANY_PARTS = "The form has too many parts";
/**
 * The parts one form may have. Our largest form, a listing, has about 30 fields and at most 10
 * photos; a list of checkboxes adds one part each. Far above that, far below what a 110 MB upload
 * body could carry in tiny parts.
 */
export const MAX_MULTIPART_PARTS = 200;

class TooManyParts extends Error {}

function refuse(request: Request, status: number, message: string) {
  return wantsJson(request)
    ? jsonError(status, message)
    : new Response(message, { status, headers: { "Content-Type": "text/plain" } });
}

export async function parseMultipartBody(request: Request, handler: UploadHandler) {
  let parts = 0;
  const counted: UploadHandler = (part) => {
    parts += 1;
    if (parts > MAX_MULTIPART_PARTS) throw new TooManyParts();
    return handler(part);
  };
  try {
    return await unstable_parseMultipartFormData(request, counted);
  } catch (error) {
    if (error instanceof TooManyParts) throw refuse(request, 413, MULTIPART_TOO_MANY_PARTS);
    // the parser's own words (@web3-storage/multipart-parser, Remix's formData): they reach here
    // from the parser or from a handler reading a part the parser cannot finish
    if (
      error instanceof Error &&
      /^malformed (multipart|content-disposition)|^Could not parse content/.test(error.message)
    )
      throw refuse(request, 400, MULTIPART_UNREADABLE);
    throw error;
  }
}
