import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { destroyUserSession } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { requireSameOrigin } from "~/http/http.server";
import { forgetKeptForm } from "~/http/kept-form.server";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

// Logging out changes state, so it is a POST (a form that works without JavaScript).
async function load() {
  return redirect("/");
}

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

async function act({ request }: ActionFunctionArgs) {
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
