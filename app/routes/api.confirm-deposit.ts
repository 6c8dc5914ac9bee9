import type { ActionFunctionArgs } from "@remix-run/node";
import { confirmDeposit, depositErrorResponse } from "~/services/deposits.server";
import { consumeRateLimit } from "~/services/rate-limit.server";
import { requireUser } from "~/services/session.server";
import { jsonError } from "~/utils/http.server";
import { confirmDepositSchema } from "~/utils/schemas/deposit";
import { whileDatabaseUp } from "~/services/availability.server";

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
