import { jsonError } from "./http.server";

const MAX_JSON_BYTES = 64 * 1024;

/**
 * Reads a JSON request body, refusing a wrong content type (415), an oversized body (413) or
 * malformed JSON (400) with a clear message instead of a 500.
 */
export async function readJson(request: Request, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw jsonError(415, "Send the body as application/json");
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw jsonError(413, "The request body is too large");
  const text = await request.text();
  if (Buffer.byteLength(text) > maxBytes) throw jsonError(413, "The request body is too large");
  try {
    return JSON.parse(text);
  } catch {
    throw jsonError(400, "The request body is not valid JSON");
  }
}
