// The cross-origin rule and the JSON-or-page rule, in one copy for the production server (which
// refuses a cross-origin write before Remix sees it: server/worker.ts) and the app (which checks
// again in every action: requireSameOrigin in ./http.server.ts). Plain functions over strings, no
// imports, so the server can load this file as it is.

export const CROSS_ORIGIN_REFUSED = "Cross-origin request refused";

export const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The origin a request says it comes from: its Origin header ("null" included: a sandboxed or
 * privacy-stripped page), else its Referer's origin ("invalid" when that cannot be read), else
 * null when it says neither (a non-browser client).
 */
export function claimedOrigin(
  origin: string | null | undefined,
  referer: string | null | undefined,
) {
  if (origin) return origin;
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return "invalid";
  }
}

/**
 * True for a write (not GET, HEAD or OPTIONS) that names an origin other than the ones allowed
 * (the request's own and APP_URL's). Browsers send Origin on every cross-origin POST; a
 * same-origin one may carry it, a Referer, or neither.
 */
export function isCrossOriginWrite(
  method: string,
  origin: string | null | undefined,
  referer: string | null | undefined,
  allowed: ReadonlySet<string>,
) {
  if (SAFE_METHODS.has(method)) return false;
  const source = claimedOrigin(origin, referer);
  return source !== null && !allowed.has(source);
}

/**
 * True when a write's Origin header names a host other than the one the request came to (the
 * first X-Forwarded-Host, else Host), or cannot be read: the rule Remix applies to a page's form
 * post, which it answers with a bare 500 (docs/decisions/3671). A write without an Origin, or
 * with "null", is left to isCrossOriginWrite.
 */
export function originMissesHost(
  method: string,
  origin: string | null | undefined,
  forwardedHost: string | null | undefined,
  host: string | null | undefined,
) {
  if (SAFE_METHODS.has(method) || !origin || origin === "null") return false;
  const target = forwardedHost?.split(",")[0]?.trim() || host;
  try {
    return new URL(origin).host !== target;
  } catch {
    return true;
  }
}

/** True for calls that want JSON back (the /api/* and /paypal/* routes, fetch clients), not a page. */
export function wantsJsonAnswer(pathname: string, accept: string | null | undefined) {
  if (pathname.startsWith("/api/") || pathname.startsWith("/paypal/")) return true;
  return (accept ?? "").includes("application/json") && !(accept ?? "").includes("text/html");
}
