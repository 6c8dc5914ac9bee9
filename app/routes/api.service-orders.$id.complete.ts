import type { ActionFunctionArgs } from "@remix-run/node";
import { orderStepJson } from "~/modules/affiliates/order-steps.server";
import { requireUser } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";

/** POST /api/service-orders/{id}/complete (the form path is POST /service-orders/{id}, intent=complete). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const user = await requireUser(request);
  return orderStepJson(user, params.id ?? "", "complete");
}
