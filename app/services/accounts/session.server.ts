import { createHash, randomBytes } from "node:crypto";
import { data, redirect } from "@remix-run/node";
import { sql } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { Session, User } from "~/models/user.server";
import { SESSION_MAX_AGE_SECONDS, sessionCookie } from "~/http/cookies.server";
import { jsonError, requireSameOrigin, wantsJson } from "~/http/http.server";
import { noteUser } from "~/platform/request-notes.server";
import {
  UNAUTHORIZED_TOAST,
  type SignInRequired,
  type SignInToast,
} from "~/services/accounts/sign-in";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Starts a new session (a fresh id every sign-in) and returns its Set-Cookie header. */
export async function createUserSession(userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await Session.create({
    id: hash(token),
    userId,
    expiresAt: new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
  });
  return sessionCookie.serialize(token);
}

// A person's browser sends the same Cookie header with every page: its signature's check (an
// HMAC) and the token's hash are kept for that header, up to 1,000 headers, the oldest let go
// first (docs/decisions/3570). Only headers whose signature checked are kept, so what fills it
// needs the secret; a kept header answers as it did, since the secret does not change while the
// server runs. Whether the session is still open is the database's to say, on every request.
const checkedHeaders = new Map<string, string>();
const CHECKED_HEADERS_KEPT = 1_000;

/** The id the request's session is stored under (its token's hash), or null without one. */
export async function sessionId(request: Request): Promise<string | null> {
  const header = request.headers.get("cookie");
  if (!header) return null;
  const kept = checkedHeaders.get(header);
  if (kept) return kept;
  const token = await sessionCookie.parse(header);
  if (typeof token !== "string" || token.length === 0) return null;
  const id = hash(token);
  if (checkedHeaders.size >= CHECKED_HEADERS_KEPT)
    checkedHeaders.delete(checkedHeaders.keys().next().value!);
  checkedHeaders.set(header, id);
  return id;
}

// One read per request: the root loader and the page's own loader (or requireUser) both ask for
// the user of the same Request object, and a page load answers both from the first read
// (docs/decisions/1904). An action's loaders get a new Request, so they read it again.
const readsOfRequests = new WeakMap<Request, Promise<SessionRead | null>>();

/**
 * The signed-in user with what the pages show of them beside: their unread notifications, and
 * what their deposit holds (leads on open lots, unpaid invoices in full) for the buying-power figure.
 */
export type SessionRead = { user: User; unreadNotifications: number; held: string };

/** The request's session: its user and unread count, or null when nobody is signed in. */
export function readSession(request: Request): Promise<SessionRead | null> {
  let read = readsOfRequests.get(request);
  if (!read) {
    read = readSessionOnce(request);
    readsOfRequests.set(request, read);
    // a failed read (an outage) is not kept: a later ask tries again
    read.catch(() => readsOfRequests.delete(request));
  }
  // Each asker gets its own copy of a thrown answer: the root loader and the page's loader both
  // throw it, and Remix reads each one's body, which can be read only once (it was a 500, "Body
  // has already been read", whenever the database was slow). An outage is thrown as the error
  // it is; each loader's guard makes its own 503 of it (docs/decisions/3611).
  return read.catch((error: unknown) => {
    throw error instanceof Response ? error.clone() : error;
  });
}

/** The signed-in user, or null. */
export async function getUser(request: Request): Promise<User | null> {
  return (await readSession(request))?.user ?? null;
}

// The session read, made once from the model: every column the User model declares, under its
// attribute's name (first_name AS "firstName"), so the row builds the model as it is.
let sessionRead: string | undefined;
function sessionStatement() {
  sessionRead ??= `SELECT ${Object.entries(User.getAttributes())
    .map(([name, attribute]) => `u.${attribute.field ?? name} AS "${name}"`)
    .join(", ")},
      (SELECT count(*)::int FROM notifications n
        WHERE n.user_id = u.id AND n.read_at IS NULL) AS "unreadNotifications__",
      (SELECT e.total::numeric(14, 2)::text FROM deposit_exposure(u.id, NULL, $2) e) AS "held__"
      FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = $1 AND s.expires_at > now()`;
  return sessionRead;
}

async function readSessionOnce(request: Request): Promise<SessionRead | null> {
  const id = await sessionId(request);
  if (!id) return null;
  // One statement for a signed-in page's own work: the session, its user, the unread count and
  // what the deposit holds, straight through the pool (docs/decisions/2903). The user is then built onto the model
  // without a query, so every caller gets the same User as before.
  const [row] = await sql<
    Record<string, unknown> & { unreadNotifications__: number; held__: string }
  >(
    sessionStatement(),
    // what it holds, at the server's clock: an overdue invoice holds its late fee (record 3510)
    [id, now()],
    { prepared: true },
  );
  if (!row) return null;
  const { unreadNotifications__: unreadNotifications, held__: held, ...attributes } = row;
  const user = User.build(attributes as never, { raw: true, isNewRecord: false });
  noteUser(request, user.id);
  return { user, unreadNotifications, held };
}

/** Sign in, then come back to `returnTo` (by default the page asked for). */
function signInPath(request: Request, returnTo?: string) {
  const url = new URL(request.url);
  // Remix's own parameters on a client-side data request are not part of the page's address.
  url.searchParams.delete("_routes");
  url.searchParams.delete("_data");
  const back = returnTo ?? `${url.pathname}${url.search}`;
  return `/api/login?returnTo=${encodeURIComponent(back)}`;
}

/**
 * A fetch made by the app's own scripts (a client-side navigation, a fetcher, a revalidation), as
 * the browser's Fetch Metadata tells: a document request says `document`, and a browser that does
 * not send the header is treated as one.
 */
export function fromScript(request: Request) {
  return request.headers.get("sec-fetch-dest") === "empty";
}

/**
 * With JavaScript running, a 401 the page turns into a toast and, 500 ms later, sign-in
 * (docs/decisions/0104); for a document request (and so without JavaScript) the redirect itself.
 */
export function signInRequired(
  request: Request,
  options: { returnTo?: string; toast?: SignInToast } = {},
) {
  const signIn = signInPath(request, options.returnTo);
  if (fromScript(request)) {
    return data<SignInRequired>(
      { signIn, toast: options.toast ?? UNAUTHORIZED_TOAST },
      { status: 401 },
    );
  }
  return redirect(signIn);
}

/**
 * The signed-in user, or: a 401 JSON answer for API calls, a redirect to sign in (with returnTo)
 * for pages (a 401 the page handles when the app's scripts asked). State-changing requests must
 * also come from our own origin.
 */
export async function requireUser(request: Request): Promise<User> {
  requireSameOrigin(request);
  const user = await getUser(request);
  if (user) return user;
  throw notSignedIn(request);
}

/** What requireUser throws without a signed-in user: a 401 for API calls, else sign-in. */
export function notSignedIn(request: Request) {
  return wantsJson(request) ? jsonError(401, "Unauthorized") : signInRequired(request);
}

export async function requireAdmin(request: Request): Promise<User> {
  const user = await requireUser(request);
  if (user.role !== "admin") {
    throw wantsJson(request)
      ? jsonError(403, "Access Denied: You need admin privileges to access this page.")
      : new Response("You need admin privileges to access this page.", { status: 403 });
  }
  return user;
}

/** Ends the session on the server and returns the header that clears the cookie. */
export async function destroyUserSession(request: Request): Promise<string> {
  const id = await sessionId(request);
  if (id) await Session.destroy({ where: { id } });
  // this request no longer has a user, for anything that asks after the sign-out
  readsOfRequests.set(request, Promise.resolve(null));
  return sessionCookie.serialize("", { maxAge: 0, expires: new Date(0) });
}
