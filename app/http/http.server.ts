import { env } from "~/platform/env.server";
import { jsonError } from "./respond.server";
import { CROSS_ORIGIN_REFUSED, isCrossOriginWrite, wantsJsonAnswer } from "./same-origin";

/** True for calls that want JSON back (the /api/* routes and fetch clients), not a page. */
export function wantsJson(request: Request) {
  return wantsJsonAnswer(new URL(request.url).pathname, request.headers.get("accept"));
}

export { jsonError } from "./respond.server";

/**
 * Refuses a state-changing request from another origin (CSRF): the rule in ./same-origin, which the
 * production server applies first.
 */
export function requireSameOrigin(request: Request) {
  const allowed = new Set([new URL(request.url).origin, new URL(env().APP_URL).origin]);
  const { method, headers } = request;
  if (isCrossOriginWrite(method, headers.get("origin"), headers.get("referer"), allowed)) {
    throw wantsJson(request)
      ? jsonError(403, CROSS_ORIGIN_REFUSED)
      : new Response(CROSS_ORIGIN_REFUSED, { status: 403 });
  }
}

/**
 * A same-site path to go back to, or the fallback: never another site (no open redirects). What
 * is not printable ASCII (an accent, a euro sign, an ideographic space) is percent-encoded: a
 * Location header carries bytes, and such a character there is a 500, not a redirect.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (!to || typeof to !== "string") return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- a control character in a path refuses it
  if (/[\u0000-\u001f\u007f]/.test(to)) return fallback;
  try {
    return to.replace(/[^\u0021-\u007e]+/g, (text) => encodeURIComponent(text));
  } catch {
    return fallback; // a lone surrogate has no UTF-8 form
  }
}

/**
 * A route's `headers` for pages whose error boundary renders a thrown Response, or whose action
 * answers a 503: Remix drops those answers' headers on a page unless the route passes them on.
 * Keeps Retry-After (a 429, or storage down: record 3208).
 */
export function errorBoundaryHeaders({
  errorHeaders,
  actionHeaders,
}: {
  errorHeaders?: Headers;
  actionHeaders?: Headers;
}) {
  const headers = new Headers();
  const retryAfter = errorHeaders?.get("Retry-After") ?? actionHeaders?.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}
