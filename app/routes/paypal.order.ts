import type { ActionFunctionArgs } from "@remix-run/node";
import { startDeposit } from "~/services/deposits/deposits.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/services/accounts/session.server";
import { errorJson, jsonError } from "~/http/respond.server";
import { readJson } from "~/http/json-body.server";
import { createDepositOrderSchema } from "~/services/deposits/schemas";
import { guardResourceAction } from "~/http/route-guards.server";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/** POST /paypal/order: {amount, currency, intent} → {id} of a new deposit order at the provider. */
function act(args: ActionFunctionArgs) {
  return startOrder(args.request);
}

async function startOrder(request: Request) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const user = await requireUser(request);
  await consumeRateLimit(request, "payment", user.id);
  try {
    // checked here rather than by readJsonBody: the PayPal buttons show "Invalid Amount - <why>"
    const parsed = createDepositOrderSchema.safeParse(await readJson(request));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return jsonError(400, `Invalid Amount - ${issue?.message ?? "Enter an amount."}`);
    }
    const { order, approvalUrl } = await startDeposit(user.id, parsed.data.amount);
    return Response.json(
      { id: order.providerOrderId, status: "CREATED", approvalUrl },
      { status: 201 },
    );
  } catch (error) {
    return error instanceof Response ? error : errorJson(error);
  }
}
