import type { ActionFunctionArgs } from "@remix-run/node";
import { confirmDeposit } from "~/services/deposits/deposits.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/services/accounts/session.server";
import { errorJson, jsonError } from "~/http/respond.server";
import { readJsonBody } from "~/http/json-body.server";
import { confirmDepositSchema } from "~/services/deposits/schemas";
import { guardResourceAction } from "~/http/route-guards.server";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/**
 * POST /api/confirm-deposit: {orderID, amount} → {newDeposit}. The amount the browser claims is
 * ignored: the server credits what the provider captured, once per order.
 */
async function act({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const user = await requireUser(request);
  await consumeRateLimit(request, "payment", user.id);
  try {
    const { orderID } = await readJsonBody(request, confirmDepositSchema);
    const result = await confirmDeposit(user.id, orderID);
    return Response.json({ newDeposit: result.newDeposit, credited: result.captured });
  } catch (error) {
    return error instanceof Response ? error : errorJson(error);
  }
}
