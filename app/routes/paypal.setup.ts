import type { LoaderFunctionArgs } from "@remix-run/node";
import { paymentSetup } from "~/services/deposits/deposits.server";
import { requireUser } from "~/services/accounts/session.server";
import { errorJson } from "~/http/respond.server";

/** GET /paypal/setup: a client token (and client id) for the provider's browser SDK. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  try {
    return Response.json(await paymentSetup(), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorJson(error);
  }
}
