import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { rememberFlag } from "~/http/cookies.server";
import { requireSameOrigin } from "~/http/http.server";
import { ONBOARDING_COMPLETED } from "~/utils/shell";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

async function load() {
  return redirect("/");
}

const ONE_YEAR = 60 * 60 * 24 * 365;

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/**
 * Records the onboarding as done, finished or skipped (the same post either way): the cookie
 * tells the server not to offer it again. A form post (no JavaScript) goes back to its page; the
 * dialog's script asks for JSON and gets 204 (it keeps its localStorage flag as well).
 */
async function act({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return rememberFlag(request, ONBOARDING_COMPLETED, ONE_YEAR);
}
