import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { rememberFlag } from "~/http/cookies.server";
import { requireSameOrigin } from "~/http/http.server";
import { ONBOARDING_COMPLETED } from "~/utils/shell";

export async function loader() {
  return redirect("/");
}

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * Records the onboarding as done, finished or skipped (the same post either way): the cookie
 * tells the server not to offer it again. A form post (no JavaScript) goes back to its page; the
 * dialog's script asks for JSON and gets 204 (it keeps its localStorage flag as well).
 */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return rememberFlag(request, ONBOARDING_COMPLETED, ONE_YEAR);
}
