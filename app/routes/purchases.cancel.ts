import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/accounts/session.server";
import { providerOrderId } from "~/services/deposits/schemas";
import { cancelPurchasePayment } from "~/services/purchases/paying.server";
import { redirectWithToast } from "~/http/toast.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** The payer cancelled at the provider: nothing was charged; back to the invoice. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const token = providerOrderId.safeParse(new URL(request.url).searchParams.get("token") ?? "");
  const purchaseId = token.success ? await cancelPurchasePayment(user.id, token.data) : null;
  return redirectWithToast(purchaseId ? `/purchases/${purchaseId}` : "/my-auctions#won", {
    title: "Payment Cancelled",
    description: "You cancelled the payment. Nothing was charged; the invoice is still open.",
    type: "info",
  });
}
