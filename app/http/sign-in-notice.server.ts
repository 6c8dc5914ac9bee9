// requireUser with a reason: for pages a signed-out visitor reaches by a button ("Post Vehicle"),
// the sign-in comes with a toast saying why. API calls still get a plain 401.
import { fromScript, getUser, signInRequired } from "~/services/accounts/session.server";
import type { SignInToast } from "~/services/accounts/sign-in";
import { jsonError, requireSameOrigin, wantsJson } from "./http.server";
import { redirectWithToast } from "./toast.server";

/**
 * The signed-in user, or: 401 JSON for API calls; with the app's scripts running, the 401 the page
 * turns into `toast` and a sign-in; without them, a redirect to sign in that shows `toast`. Either
 * way the visitor comes back to the page (a GET keeps its query string). State-changing requests
 * must come from our own origin.
 */
export async function requireUserWithNotice(request: Request, toast: SignInToast) {
  requireSameOrigin(request);
  const user = await getUser(request);
  if (user) return user;
  if (wantsJson(request)) throw jsonError(401, "Unauthorized");
  const url = new URL(request.url);
  const returnTo = request.method === "GET" ? `${url.pathname}${url.search}` : url.pathname;
  if (fromScript(request)) throw signInRequired(request, { returnTo, toast });
  throw await redirectWithToast(`/api/login?returnTo=${encodeURIComponent(returnTo)}`, toast);
}
