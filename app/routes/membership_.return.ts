import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  alreadyPaidToast,
  RENEWED_TOAST,
  SUBSCRIBE_FAILED_TOAST,
  SUBSCRIBED_TOAST,
} from "~/services/memberships/messages";
import { completeMembershipPayment, PeriodPaidError } from "~/services/memberships/billing.server";
import { requireUser } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { guardResourceLoader } from "~/http/route-guards.server";
import { log } from "~/platform/log.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** The provider sends the payer back here with ?token=<order id>: capture, then activate. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!/^[A-Za-z0-9-]{1,64}$/.test(token)) {
    return redirectWithToast("/membership", SUBSCRIBE_FAILED_TOAST);
  }
  try {
    const { kind } = await completeMembershipPayment(user.id, token);
    return redirectWithToast("/membership", kind === "renew" ? RENEWED_TOAST : SUBSCRIBED_TOAST);
  } catch (error) {
    // another tab or call paid this period first: this checkout is closed, never charged
    if (error instanceof PeriodPaidError) {
      return redirectWithToast("/membership", alreadyPaidToast(error.message));
    }
    // Declined, unreachable provider, someone else's order: nothing was activated.
    log().error({ err: error }, "membership return failed");
    return redirectWithToast("/membership", SUBSCRIBE_FAILED_TOAST);
  }
}
