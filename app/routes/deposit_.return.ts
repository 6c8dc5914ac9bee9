import type { LoaderFunctionArgs } from "@remix-run/node";
import { confirmDeposit, DepositError } from "~/services/deposits/deposits.server";
import { DEPOSIT_MESSAGES, DEPOSIT_SUCCESS } from "~/services/deposits/rules";
import { providerOrderId } from "~/services/deposits/schemas";
import { requireUser } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { isUserError } from "~/utils/user-error";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** The provider sends the payer back here with ?token=<order id>: capture, credit, go on. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const token = providerOrderId.safeParse(new URL(request.url).searchParams.get("token") ?? "");
  try {
    if (!token.success) throw new DepositError(DEPOSIT_MESSAGES.unknownOrder, { status: 404 });
    await confirmDeposit(user.id, token.data);
    // a flash toast, read once: reloading /deposit afterwards announces nothing
    return redirectWithToast("/deposit", DEPOSIT_SUCCESS);
  } catch (error) {
    if (!isUserError(error)) throw error;
    return redirectWithToast("/deposit", {
      title: "Error",
      description: error.message,
      type: "error",
    });
  }
}
