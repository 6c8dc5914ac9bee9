import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { jsonError } from "~/http/http.server";
import { readJsonBody } from "~/http/json-body.server";
import { errorJson } from "~/http/respond.server";
import { requireUser } from "~/services/accounts/session.server";
import { beginSubscription, PeriodPaidError } from "~/services/memberships/billing.server";
import { SUBSCRIBE_FAILED } from "~/services/memberships/messages";
import { subscribeSchema } from "~/services/memberships/schemas";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) =>
  guardResourceLoader(args, () => jsonError(405, "Use POST"));

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/**
 * POST /api/membership/subscribe {planId, campaignId?}: creates the payment order for the first
 * period and answers where the payer approves it. The membership becomes active when the provider
 * sends the payer back to /membership/return and the payment is captured. A refusal is a 4xx, a
 * provider failure a 502, both reading "headline + reason".
 */
async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return jsonError(405, "Use POST");
  const input = await readJsonBody(request, subscribeSchema);
  await consumeRateLimit(request, "payment", user.id);
  try {
    const { approvalUrl, paymentOrderId } = await beginSubscription(user.id, input);
    return Response.json({ paymentOrderId, approvalUrl }, { status: 201 });
  } catch (error) {
    // "You already pay for Basic until ...": not a failure to try again (record 3501)
    if (error instanceof PeriodPaidError) return errorJson(error);
    return errorJson(error, { prefix: SUBSCRIBE_FAILED });
  }
}
