import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirectWithToast } from "~/http/toast.server";
import { requireUser } from "~/services/accounts/session.server";
import { messageAsToast, TRANSPORT_MESSAGES } from "~/services/affiliates/messages";
import { cancelTransportPayment } from "~/services/affiliates/transport-payments.server";
import { providerOrderId } from "~/services/deposits/schemas";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** The payer cancelled at the provider: nothing was charged; back to the order's review step. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const token = providerOrderId.safeParse(new URL(request.url).searchParams.get("token") ?? "");
  const orderId = token.success ? await cancelTransportPayment(user.id, token.data) : null;
  const toast = messageAsToast(TRANSPORT_MESSAGES.cancelled, "Payment Cancelled");
  return redirectWithToast(orderId ? `/service-orders/${orderId}` : "/service-orders/request", {
    ...toast,
    type: "info",
  });
}
