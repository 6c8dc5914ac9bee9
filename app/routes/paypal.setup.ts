import type { LoaderFunctionArgs } from "@remix-run/node";
import { paymentGateway } from "~/services/adapters/payments/index.server";
import { depositErrorResponse } from "~/services/deposits.server";
import { requireUser } from "~/services/session.server";
import { env } from "~/utils/env.server";

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
