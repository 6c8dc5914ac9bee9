import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { flagCookie } from "~/http/cookies.server";
import { requireSameOrigin, safeRedirect } from "~/http/http.server";
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
  const cookie = flagCookie(BETA_BANNER_CLOSED, "true", ONE_YEAR);
  if ((request.headers.get("accept") ?? "").includes("application/json")) {
    return new Response(null, { status: 204, headers: { "Set-Cookie": cookie } });
  }
  const form = await request.formData().catch(() => new FormData());
  return redirect(safeRedirect(form.get("redirectTo"), "/"), {
    status: 303,
    headers: { "Set-Cookie": cookie },
  });
}
