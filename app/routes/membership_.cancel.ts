import type { LoaderFunctionArgs } from "@remix-run/node";
import { PAYMENT_CANCELLED_TOAST } from "~/services/memberships/messages";
import { cancelMembershipPayment } from "~/services/memberships/billing.server";
import { requireUser } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { guardResourceLoader } from "~/http/route-guards.server";
import { log } from "~/platform/log.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** The payer turned back at the provider: nothing was charged and nothing changes. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (/^[A-Za-z0-9-]{1,64}$/.test(token)) {
    try {
      await cancelMembershipPayment(user.id, token);
    } catch (error) {
      log().error({ err: error }, "membership cancel failed");
    }
  }
  return redirectWithToast("/membership", PAYMENT_CANCELLED_TOAST);
}
