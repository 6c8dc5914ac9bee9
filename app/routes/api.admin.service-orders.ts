import type { ActionFunctionArgs } from "@remix-run/node";
import { AffiliateError } from "~/modules/affiliates/applications.server";
import { createOrderByAdmin, toPublicOrder } from "~/modules/affiliates/service-orders.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { AdminServiceOrderSchema } from "~/modules/affiliates/schemas";

/** POST /api/admin/service-orders: an admin creates an order (JSON), admins only. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const admin = await requireAdmin(request);
  const parsed = AdminServiceOrderSchema.safeParse(await request.json().catch(() => ({})));
  if (!parsed.success) return jsonError(400, parsed.error.issues[0].message);
  try {
    const order = await createOrderByAdmin(admin.id, parsed.data);
    return Response.json(toPublicOrder(order, admin), { status: 201 });
  } catch (error) {
    if (error instanceof AffiliateError) return jsonError(error.status, error.message);
    throw error;
  }
}
