import type { LoaderFunctionArgs } from "@remix-run/node";
import { paymentSetup } from "~/services/deposits/deposits.server";
import { requireUser } from "~/services/accounts/session.server";
import { errorJson } from "~/http/respond.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** GET /paypal/setup: a client token (and client id) for the provider's browser SDK. */
async function load({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  try {
    return Response.json(await paymentSetup(), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorJson(error);
  }
}
