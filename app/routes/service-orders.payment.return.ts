import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirectWithToast } from "~/http/toast.server";
import { requireUser } from "~/services/accounts/session.server";
import { messageAsToast, TRANSPORT_MESSAGES } from "~/services/affiliates/messages";
import { completeTransportPayment } from "~/services/affiliates/transport-payments.server";
import { providerOrderId } from "~/services/deposits/schemas";
import { isUserError } from "~/utils/user-error";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** The provider sends the payer back here with ?token=: capture, mark the job paid, go on. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const token = providerOrderId.safeParse(new URL(request.url).searchParams.get("token") ?? "");
  try {
    if (!token.success) {
      const toast = messageAsToast(TRANSPORT_MESSAGES.unknownCheckout, "Error");
      return redirectWithToast("/service-orders/request", { ...toast, type: "error" });
    }
    const { orderId } = await completeTransportPayment(user.id, token.data);
    const toast = messageAsToast(TRANSPORT_MESSAGES.paidByGateway, "Paid");
    return redirectWithToast(`/service-orders/${orderId}`, { ...toast, type: "success" });
  } catch (error) {
    if (!isUserError(error)) throw error;
    const toast = messageAsToast(error.message, "Error");
    return redirectWithToast("/service-orders/request", { ...toast, type: "error" });
  }
}
