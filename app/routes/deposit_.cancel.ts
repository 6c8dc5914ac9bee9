import type { LoaderFunctionArgs } from "@remix-run/node";
import { cancelDeposit } from "~/services/deposits/deposits.server";
import { providerOrderId } from "~/services/deposits/schemas";
import { requireUser } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** The payer cancelled at the provider: nothing was charged; say so on the deposit page. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const token = providerOrderId.safeParse(new URL(request.url).searchParams.get("token") ?? "");
  if (token.success) await cancelDeposit(user.id, token.data);
  return redirectWithToast("/deposit", {
    title: "Payment Cancelled",
    description: "You cancelled the payment. Nothing was charged and your balance is unchanged.",
    type: "info",
  });
}
