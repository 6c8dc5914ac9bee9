// Reads a multipart body with Remix's streaming parser, each part to `handler`. A body that is not
// well-formed multipart (cut off before its closing boundary, a part without its headers) is the
// client's mistake: a 400, not the parser's Error, which answered 500 (docs/decisions/3206).
// Any other error (storage, sharp) passes through unchanged.
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { jsonError, wantsJson } from "./http.server";

export const MULTIPART_UNREADABLE = "The form could not be read";

export async function parseMultipartBody(request: Request, handler: UploadHandler) {
  try {
    return await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    // the parser's own words (@web3-storage/multipart-parser, Remix's formData): they reach here
    // from the parser or from a handler reading a part the parser cannot finish
    if (
      error instanceof Error &&
      /^malformed multipart|^Could not parse content/.test(error.message)
    )
      throw wantsJson(request)
        ? jsonError(400, MULTIPART_UNREADABLE)
        : new Response(MULTIPART_UNREADABLE, {
            status: 400,
            headers: { "Content-Type": "text/plain" },
          });
    throw error;
  }
}
