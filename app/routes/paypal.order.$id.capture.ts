import type { ActionFunctionArgs } from "@remix-run/node";
import { confirmDeposit, depositErrorResponse } from "~/modules/deposits/deposits.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { whileDatabaseUp } from "~/platform/availability.server";

/** POST /paypal/order/{id}/capture (SPEC §7): captures and credits the user's deposit order. */
export async function action(args: ActionFunctionArgs) {
  return whileDatabaseUp(args.request, () => act(args));
}

async function act({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const user = await requireUser(request);
  await consumeRateLimit(request, "payment", user.id);
  const orderId = params.id ?? "";
  if (!/^[A-Za-z0-9-]{1,64}$/.test(orderId)) return jsonError(404, "Unknown payment order");
  try {
    const result = await confirmDeposit(user.id, orderId);
    return Response.json({
      id: orderId,
      status: "COMPLETED",
      amount: result.captured,
      newDeposit: result.newDeposit,
    });
  } catch (error) {
    return depositErrorResponse(error);
  }
}
