import type { ActionFunctionArgs } from "@remix-run/node";
import { depositErrorResponse, startDeposit } from "~/modules/deposits/deposits.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { createDepositOrderSchema } from "~/modules/deposits/schemas";
import { whileDatabaseUp } from "~/platform/availability.server";

/** POST /paypal/order (SPEC §7): {amount, currency, intent} → {id} of a new deposit order. */
export async function action(args: ActionFunctionArgs) {
  return whileDatabaseUp(args.request, () => act(args));
}

async function act({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const user = await requireUser(request);
  await consumeRateLimit(request, "payment", user.id);
  const body = await request.json().catch(() => null);
  const parsed = createDepositOrderSchema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return jsonError(400, `Invalid Amount - ${issue?.message ?? "Enter an amount."}`);
  }
  try {
    const { order, approvalUrl } = await startDeposit(user.id, parsed.data.amount);
    return Response.json(
      { id: order.providerOrderId, status: "CREATED", approvalUrl },
      { status: 201 },
    );
  } catch (error) {
    return depositErrorResponse(error, "Failed to start the payment. Please try again.");
  }
}
