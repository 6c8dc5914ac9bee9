import type { ActionFunctionArgs } from "@remix-run/node";
import { toPublicOrder } from "~/services/affiliates/service-order-views.server";
import { createOrderByAdmin } from "~/services/affiliates/service-orders.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { readJsonBody } from "~/http/json-body.server";
import { errorJson } from "~/http/respond.server";
import { AdminServiceOrderSchema } from "~/services/affiliates/schemas";
import { guardResourceAction } from "~/http/route-guards.server";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/** POST /api/admin/service-orders: an admin creates an order (JSON), admins only. */
async function act({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const admin = await requireAdmin(request);
  try {
    const input = await readJsonBody(request, AdminServiceOrderSchema);
    const order = await createOrderByAdmin(admin.id, input);
    return Response.json(toPublicOrder(order, admin), { status: 201 });
  } catch (error) {
    // the body reader's refusal is thrown as its answer
    return error instanceof Response ? error : errorJson(error);
  }
}
