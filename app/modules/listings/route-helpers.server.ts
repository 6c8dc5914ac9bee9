// What the listing screens and calls share: the sign-in guard with SPEC.md §8's message, and the
// flash messages of SPEC.md §5 and §8.
import { fromScript, getUser, signInRequired } from "~/modules/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { requireSameOrigin, wantsJson, jsonError } from "~/http/http.server";
import type { FlashToast } from "~/http/cookies.server";

export const POSTED_TOAST: FlashToast = {
  title: "Vehicle Posted Successfully!",
  description: "Your vehicle is now live and visible to buyers.",
  type: "success",
};

export const LIMIT_REACHED_TOAST: FlashToast = {
  title: "Posting Limit Reached",
  description: "You've used your 3 free listings. Upgrade to a membership to post more vehicles.",
  type: "error",
};

/** requireUser for posting and managing listings, with SPEC.md's "Authentication Required". */
export async function requireListingUser(request: Request) {
  requireSameOrigin(request);
  const user = await getUser(request);
  if (user) return user;
  if (wantsJson(request)) throw jsonError(401, "Unauthorized");
  const url = new URL(request.url);
  const returnTo = request.method === "GET" ? `${url.pathname}${url.search}` : url.pathname;
  const toast = {
    title: "Authentication Required",
    description: "Please log in to post a vehicle.",
    type: "error",
  } as const;
  if (fromScript(request)) throw signInRequired(request, { returnTo, toast });
  throw await redirectWithToast(`/api/login?returnTo=${encodeURIComponent(returnTo)}`, toast);
}
