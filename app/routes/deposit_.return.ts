import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { DepositError, CONFIRM_FAILED, confirmDeposit } from "~/modules/deposits/deposits.server";
import { requireUser } from "~/modules/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { PaymentGatewayError } from "~/platform/payments/index.server";
import { whileDatabaseUp } from "~/platform/availability.server";

/** The provider sends the payer back here with ?token=<order id>: capture, credit, go on. */
export async function loader(args: LoaderFunctionArgs) {
  return whileDatabaseUp(args.request, () => settleReturn(args));
}

async function settleReturn({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  try {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(token)) throw new DepositError(404, "Unknown payment order");
    await confirmDeposit(user.id, token);
    return redirect("/deposit?success=true");
  } catch (error) {
    if (!(error instanceof DepositError || error instanceof PaymentGatewayError)) throw error;
    if (error instanceof PaymentGatewayError) console.error("deposit return:", error.message);
    return redirectWithToast("/deposit", {
      title: "Error",
      description: error instanceof DepositError ? error.message : CONFIRM_FAILED,
      type: "error",
    });
  }
}
