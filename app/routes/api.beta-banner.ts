import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireSameOrigin, safeRedirect } from "~/utils/http.server";
import { BETA_BANNER_CLOSED } from "~/utils/shell";

export async function loader() {
  return redirect("/");
}

/** Closes the beta banner without JavaScript: the cookie tells the server not to render it. */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const form = await request.formData();
  return redirect(safeRedirect(form.get("redirectTo"), "/"), {
    status: 303,
    headers: {
      "Set-Cookie": `${BETA_BANNER_CLOSED}=true; Path=/; Max-Age=31536000; SameSite=Lax`,
    },
  });
}
