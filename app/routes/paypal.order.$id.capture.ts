import type { ActionFunctionArgs } from "@remix-run/node";
import { confirmDeposit } from "~/services/deposits/deposits.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/services/accounts/session.server";
import { errorJson, jsonError } from "~/http/respond.server";
import { DEPOSIT_MESSAGES } from "~/services/deposits/rules";
import { providerOrderId } from "~/services/deposits/schemas";
import { guardResourceAction } from "~/http/route-guards.server";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/** POST /paypal/order/{id}/capture: captures and credits the user's deposit order. */
async function act({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const user = await requireUser(request);
  await consumeRateLimit(request, "payment", user.id);
  const orderId = providerOrderId.safeParse(params.id ?? "");
  if (!orderId.success) return jsonError(404, DEPOSIT_MESSAGES.unknownOrder);
  try {
    const result = await confirmDeposit(user.id, orderId.data);
    return Response.json({
      id: orderId.data,
      status: "COMPLETED",
      amount: result.captured,
      newDeposit: result.newDeposit,
    });
  } catch (error) {
    return errorJson(error);
  }
}
