// What a person typed into a long form is not lost when their session ends before they send it
// (see record 3320): the post that meets no session keeps its text fields in a short-lived signed
// cookie for the sign-in round trip, and the form's page restores them once, with a line saying so.
// Files and anything named like a secret are never kept; the cookie is bounded in size.
import { createHash } from "node:crypto";
import { createCookie, type UploadHandler } from "@remix-run/node";
import { env } from "~/platform/env.server";
import { sql } from "~/models/db.server";
import { drainPart, readPartUpTo } from "~/platform/multipart-upload.server";
import { parseMultipartBody } from "./multipart-body.server";
import { sessionCookie } from "./cookies.server";
import { readForm } from "./form-body.server";

/** How long the typed fields wait for the sign-in: long enough for the issuer's round trip. */
export const KEPT_FORM_MAX_AGE_SECONDS = 30 * 60;
/**
 * The fields' JSON at most: the signed cookie (base64 plus its signature) stays under the 4 KB a
 * browser keeps per cookie.
 */
export const KEPT_FORM_MAX_CHARS = 2_600;
const MAX_FIELD_BYTES = 32_000;
const MAX_BODY_BYTES = 60 * 1024 * 1024;
/** Never kept: secrets, and the bookkeeping fields the page sets itself. */
const NEVER_KEPT = /password|passcode|secret|token|csrf|card|cvv|ssn|^source$|^_/i;

const keptFormCookie = createCookie("__kept_form", {
  httpOnly: true,
  sameSite: "lax",
  secure: env().isProduction,
  path: "/",
  maxAge: KEPT_FORM_MAX_AGE_SECONDS,
  secrets: env().SESSION_SECRETS,
});

type KeptForm = {
  /** The page the form lives on. */
  p: string;
  /** The typed fields, by name. */
  f: Record<string, string>;
  /** Whether some field was left out (too long for the cookie). */
  x: boolean;
  /** The account whose session ended, when the server still knew it. */
  u: string | null;
};

import type { RestoredForm } from "~/components/kept-form-notice";

/** Which fields of a posted form to keep: text only, no secrets, within the size bound. */
export function fieldsToKeep(entries: Iterable<[string, FormDataEntryValue]>) {
  const fields: Record<string, string> = {};
  let partial = false;
  let size = 2;
  for (const [name, value] of entries) {
    if (typeof value !== "string" || NEVER_KEPT.test(name) || name in fields) continue;
    if (value === "") continue;
    const cost = JSON.stringify(name).length + JSON.stringify(value).length + 2;
    if (size + cost > KEPT_FORM_MAX_CHARS) {
      partial = true;
      continue;
    }
    size += cost;
    fields[name] = value;
  }
  return { fields, partial };
}

/** The text fields of the post (url-encoded or multipart); file parts are read past, not kept. */
async function typedEntries(request: Request): Promise<Array<[string, string]>> {
  const contentType = request.headers.get("content-type") ?? "";
  const entries: Array<[string, string]> = [];
  if (contentType.startsWith("multipart/form-data")) {
    const handler: UploadHandler = async ({ name, filename, data }) => {
      const iterator = data[Symbol.asyncIterator]();
      if (filename !== undefined) {
        await drainPart(iterator, MAX_BODY_BYTES);
        return undefined;
      }
      const bytes = await readPartUpTo(iterator, MAX_FIELD_BYTES);
      if (bytes) entries.push([name, Buffer.from(bytes).toString("utf8")]);
      else await drainPart(iterator, MAX_BODY_BYTES);
      return undefined;
    };
    await parseMultipartBody(request, handler);
    return entries;
  }
  if (
    contentType.startsWith("application/x-www-form-urlencoded") ||
    contentType.startsWith("text/plain")
  ) {
    for (const [name, value] of await readForm(request))
      if (typeof value === "string") entries.push([name, value]);
  }
  return entries;
}

/** The account of the session the request still presents, expired or not (null if none). */
async function endedSessionOwner(request: Request): Promise<string | null> {
  const token = await sessionCookie.parse(request.headers.get("cookie"));
  if (typeof token !== "string" || !token) return null;
  const id = createHash("sha256").update(token).digest("hex");
  const [row] = await sql<{ userId: string }>(
    `SELECT user_id AS "userId" FROM sessions WHERE id = $1`,
    [id],
  );
  return row?.userId ?? null;
}

/** The page a post belongs to: its own path, without single fetch's `.data` ending. */
function pagePath(request: Request) {
  return new URL(request.url).pathname.replace(/\.data$/, "").replace(/(.)\/$/, "$1") || "/";
}

/** Reads the post's typed fields and returns the Set-Cookie header that keeps them (or null). */
export async function keepTypedForm(request: Request, page = pagePath(request)) {
  let entries: Array<[string, string]>;
  try {
    entries = await typedEntries(request);
  } catch {
    // A body we cannot read is a body we cannot keep; the sign-in goes ahead as it would.
    return null;
  }
  const { fields, partial } = fieldsToKeep(entries);
  if (Object.keys(fields).length === 0) return null;
  const owner = await endedSessionOwner(request).catch(() => null);
  const kept: KeptForm = { p: page, f: fields, x: partial, u: owner };
  return keptFormCookie.serialize(kept);
}

/** Whether a thrown answer is the sign-in a signed-out post gets (a 401, or a redirect to /api/login). */
function isSignInAnswer(thrown: unknown): Headers | null {
  if (thrown instanceof Response) {
    const location = thrown.headers.get("location") ?? "";
    if (thrown.status === 401 || location.startsWith("/api/login")) return thrown.headers;
    return null;
  }
  // single fetch's data(): { type: "DataWithResponseInit", data, init }
  const init = (thrown as { type?: string; init?: ResponseInit | null } | null)?.init;
  if (
    (thrown as { type?: string } | null)?.type === "DataWithResponseInit" &&
    init?.status === 401
  ) {
    const headers = new Headers(init.headers);
    init.headers = headers;
    return headers;
  }
  return null;
}

/**
 * Runs the route's sign-in check; when a post meets no session, its typed fields ride along on the
 * sign-in answer so the page can put them back after the round trip. `page` is the form's page
 * when the post goes elsewhere (Post Vehicle's upload goes to /api/vehicles).
 */
export async function keepingTypedForm<T>(
  request: Request,
  requireSignedIn: () => Promise<T>,
  page?: string,
): Promise<T> {
  try {
    return await requireSignedIn();
  } catch (thrown) {
    if (request.method !== "POST") throw thrown;
    const headers = isSignInAnswer(thrown);
    if (!headers) throw thrown;
    const cookie = await keepTypedForm(request, page);
    if (cookie) headers.append("Set-Cookie", cookie);
    throw thrown;
  }
}

/**
 * For the form page's loader, with the user signed in: the fields kept for this page (once) and
 * the header that forgets them, or null. Fields kept for another account are dropped, not shown.
 */
export async function takeKeptForm(
  request: Request,
  userId: string,
  page = pagePath(request),
): Promise<{ restored: RestoredForm | null; headers: HeadersInit }> {
  const value = (await keptFormCookie.parse(request.headers.get("cookie"))) as KeptForm | null;
  if (!value || typeof value !== "object" || value.p !== page)
    return { restored: null, headers: {} };
  const forget = { "Set-Cookie": await forgetKeptForm() };
  if (value.u && value.u !== userId) return { restored: null, headers: forget };
  const fields: Record<string, string> = {};
  for (const [name, text] of Object.entries(value.f ?? {}))
    if (typeof text === "string") fields[name] = text;
  return { restored: { fields, partial: value.x === true }, headers: forget };
}

/**
 * The header that forgets any typed fields still waiting in this browser: signing out ends them,
 * so the next person to sign in on a shared device never sees them (docs/decisions/3413).
 */
export function forgetKeptForm() {
  return keptFormCookie.serialize("", { maxAge: 0 });
}

/** Indexed names (serviceTypes[0], serviceTypes[1]) back into lists, for a form's defaults. */
export function asFormDefaults(fields: Record<string, string>) {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(fields)) {
    const match = /^(.+)\[(\d+)\]$/.exec(name);
    if (!match) {
      out[name] = value;
      continue;
    }
    const list = Array.isArray(out[match[1]]) ? (out[match[1]] as string[]) : [];
    list.push(value);
    out[match[1]] = list;
  }
  return out;
}
