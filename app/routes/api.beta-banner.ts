import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { rememberFlag } from "~/http/cookies.server";
import { requireSameOrigin } from "~/http/http.server";
import { BETA_BANNER_CLOSED } from "~/utils/shell";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);
export const handle = replicaReads;

async function load() {
  return redirect("/");
}

const ONE_YEAR = 60 * 60 * 24 * 365;

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/**
 * Closes the beta banner: the cookie tells the server not to render it. A form post (no
 * JavaScript) goes back to its page; the banner's script asks for JSON and gets 204.
 */
async function act({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return rememberFlag(request, BETA_BANNER_CLOSED, ONE_YEAR);
}
