import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { rememberFlag } from "~/http/cookies.server";
import { requireSameOrigin } from "~/http/http.server";
import { BETA_BANNER_CLOSED } from "~/utils/shell";

export async function loader() {
  return redirect("/");
}

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * Closes the beta banner: the cookie tells the server not to render it. A form post (no
 * JavaScript) goes back to its page; the banner's script asks for JSON and gets 204.
 */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return rememberFlag(request, BETA_BANNER_CLOSED, ONE_YEAR);
}
