import type { LoaderFunctionArgs } from "@remix-run/node";
import { paymentGateway } from "~/platform/payments/index.server";
import { depositErrorResponse } from "~/modules/deposits/deposits.server";
import { requireUser } from "~/modules/accounts/session.server";
import { env } from "~/platform/env.server";

/** GET /paypal/setup (SPEC §7): a client token for the provider's browser SDK. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const gateway = paymentGateway();
  try {
    return Response.json(
      {
        clientToken: await gateway.clientToken(),
        clientId: gateway.testMode ? null : (env().PAYPAL_CLIENT_ID ?? null),
        testMode: gateway.testMode,
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    return depositErrorResponse(error, "PayPal is unavailable. Please try again.");
  }
}
