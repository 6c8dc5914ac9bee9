import type { ActionFunctionArgs } from "@remix-run/node";
import {
  membershipErrorResponse,
  readJsonBody,
} from "~/modules/memberships/memberships-http.server";
import { PaymentFailedError } from "~/modules/memberships/checkout.server";
import { beginSubscription } from "~/modules/memberships/billing.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { subscribeSchema } from "~/modules/memberships/schemas";

const FAILED = "Failed to start subscription. Please try again.";

export const loader = () => jsonError(405, "Use POST");

/**
 * POST /api/membership/subscribe {planId, campaignId?} (SPEC.md §7): creates the payment order
 * for the first period and answers where the payer approves it. The membership becomes active
 * when the provider sends the payer back to /membership/return and the payment is captured.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return jsonError(405, "Use POST");
  const input = await readJsonBody(request, subscribeSchema);
  await consumeRateLimit(request, "payment", user.id);
  try {
    const { approvalUrl, paymentOrderId } = await beginSubscription(user.id, input);
    return Response.json({ paymentOrderId, approvalUrl }, { status: 201 });
  } catch (error) {
    if (error instanceof PaymentFailedError) {
      console.error("membership subscribe:", error.message);
      return jsonError(502, FAILED);
    }
    return membershipErrorResponse(error, FAILED);
  }
}
