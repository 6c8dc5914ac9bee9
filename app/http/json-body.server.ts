// The one reader for JSON request bodies. It reads at most `maxBytes` (a bigger body is a 413
// before it is all in memory), refuses a declared non-JSON content type (415) and malformed JSON
// (400), and checks the body with a zod schema: the first problem is the message, every problem
// is in `fields`. Never a 500 for anything a client sends.
import type * as z from "zod";
import { cleanJsonValue } from "~/utils/clean-text";
import { jsonError } from "./respond.server";

export const MAX_JSON_BYTES = 64 * 1024;
/** How deep a JSON body may nest objects and arrays (docs/decisions/3205). */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP = `The request is nested too deeply: at most ${MAX_JSON_DEPTH} levels`;

const TOO_LARGE = "The request body is too large";

/** The body's text, at most `maxBytes` bytes of it; a 413 past that, counted as it streams. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) throw jsonError(413, TOO_LARGE);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw jsonError(413, TOO_LARGE);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * How deep `text` nests objects and arrays, counted in one pass over the raw text (brackets inside
 * strings skipped), stopping as soon as it passes `limit`: a body too deep is refused before
 * JSON.parse or anything that walks the value sees it (docs/decisions/3205).
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * The parsed JSON body (an empty body reads as `{}`), unchecked but for control characters,
 * dropped from every string (docs/decisions/3011).
 */
export async function readJson(request: Request, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type && !type.startsWith("application/json")) {
    throw jsonError(415, "Send the body as application/json");
  }
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === "") return {};
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw jsonError(400, TOO_DEEP);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw jsonError(400, "The request body must be JSON.");
  }
  return cleanJsonValue(parsed);
}

/** The JSON body checked against `schema`, or a thrown 400 naming the first problem. */
export async function readJsonBody<T extends z.ZodType>(
  request: Request,
  schema: T,
  options: { maxBytes?: number } = {},
): Promise<z.output<T>> {
  const body = await readJson(request, options.maxBytes);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    throw jsonError(400, issues[0]?.message ?? "Invalid request", {
      fields: Object.fromEntries(issues.map((issue) => [issue.path.join("."), issue.message])),
      fieldErrors: Object.fromEntries(
        issues.map((issue) => [issue.path.join("."), [issue.message]]),
      ),
    });
  }
  return parsed.data as z.output<T>;
}
