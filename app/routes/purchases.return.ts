import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/accounts/session.server";
import { providerOrderId } from "~/services/deposits/schemas";
import { PurchaseError } from "~/services/purchases/errors";
import {
  AlreadyPaidError,
  confirmPurchasePayment,
  PAID_ONCE,
  PAYING_MESSAGES,
} from "~/services/purchases/paying.server";
import { redirectWithToast } from "~/http/toast.server";
import { isUserError } from "~/utils/user-error";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** The provider sends the payer back here with ?token=<order id>: capture, settle, release. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const token = providerOrderId.safeParse(new URL(request.url).searchParams.get("token") ?? "");
  try {
    if (!token.success) throw new PurchaseError(PAYING_MESSAGES.unknownOrder, { status: 404 });
    const purchaseId = await confirmPurchasePayment(user.id, token.data);
    return redirectWithToast(`/purchases/${purchaseId}/release`, {
      title: "Purchase paid",
      description: "Payment received. Your release and pickup code are below.",
      type: "success",
    });
  } catch (error) {
    if (!isUserError(error)) throw error;
    // this checkout, or another, already paid it: back to the paid invoice, nothing charged
    if (error instanceof AlreadyPaidError)
      return redirectWithToast(`/purchases/${error.purchaseId}`, { ...PAID_ONCE, type: "info" });
    return redirectWithToast("/my-auctions#won", {
      title: "Payment not completed",
      description: error.message,
      type: "error",
    });
  }
}
