// POST /api/service-orders/{id}/claim, /start and /complete: one action, three URLs (the form
// path of the same steps is POST /service-orders/{id} with an intent).
import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/accounts/session.server";
import { ORDER_STEP_DONE } from "~/services/affiliates/messages";
import type { OrderStep } from "~/services/affiliates/rules";
import { toPublicOrder } from "~/services/affiliates/service-order-views.server";
import { runOrderStep } from "~/services/affiliates/service-order-progress.server";
import { errorJson, jsonError } from "./respond.server";

export function orderStepAction(step: OrderStep) {
  return async function action({ request, params }: ActionFunctionArgs) {
    if (request.method !== "POST") return jsonError(405, "Method not allowed");
    const user = await requireUser(request);
    try {
      const order = await runOrderStep(user.id, params.id ?? "", step);
      const done = ORDER_STEP_DONE[step];
      return Response.json({
        order: toPublicOrder(order, user),
        message: `${done.title}: ${done.description}`,
      });
    } catch (error) {
      return errorJson(error);
    }
  };
}
