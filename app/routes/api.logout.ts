import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { destroyUserSession } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { requireSameOrigin } from "~/http/http.server";
import { forgetKeptForm } from "~/http/kept-form.server";

// Logging out changes state, so it is a POST (a form that works without JavaScript).
export async function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const cleared = await destroyUserSession(request);
  const headers = new Headers({ "Set-Cookie": cleared, "Cache-Control": "no-store" });
  headers.append("Set-Cookie", await forgetKeptForm());
  return redirectWithToast(
    "/",
    { title: "Signed out", description: "You have been signed out.", type: "info" },
    { headers },
  );
}
