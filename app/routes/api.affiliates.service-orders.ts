import type { LoaderFunctionArgs } from "@remix-run/node";
import { APPROVAL_REQUIRED, isApprovedAffiliate } from "~/services/affiliates.server";
import { requireUser } from "~/services/session.server";
import { listAffiliateOrders, toPublicOrder } from "~/services/service-orders.server";
import { jsonError } from "~/utils/http.server";

/** GET /api/affiliates/service-orders: the approved affiliate's own orders. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!(await isApprovedAffiliate(user.id))) return jsonError(403, APPROVAL_REQUIRED);
  const orders = await listAffiliateOrders(user.id);
  return Response.json(orders.map((order) => toPublicOrder(order, user)));
}
