import type { ActionFunctionArgs } from "@remix-run/node";
import { confirmDeposit, depositErrorResponse } from "~/modules/deposits/deposits.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { confirmDepositSchema } from "~/modules/deposits/schemas";
import { whileDatabaseUp } from "~/platform/availability.server";

/**
 * POST /api/confirm-deposit (SPEC §7): {orderID, amount} → {newDeposit}. The amount the browser
 * claims is ignored: the server credits what the provider captured, once per order.
 */
export async function action(args: ActionFunctionArgs) {
  return whileDatabaseUp(args.request, () => act(args));
}

async function act({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const user = await requireUser(request);
  await consumeRateLimit(request, "payment", user.id);
  const parsed = confirmDepositSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return jsonError(400, "Unknown payment order");
  try {
    const result = await confirmDeposit(user.id, parsed.data.orderID);
    return Response.json({ newDeposit: result.newDeposit, credited: result.captured });
  } catch (error) {
    return depositErrorResponse(error);
  }
}
