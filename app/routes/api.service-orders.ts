import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/session.server";
import { listOpenOrders, toPublicOrder } from "~/services/service-orders.server";
import { parseServiceOrderFilters } from "~/utils/schemas/affiliates";

/** GET /api/service-orders: open orders, filtered like the board (serviceType, pickupState…). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const filters = parseServiceOrderFilters(new URL(request.url).searchParams);
  const orders = await listOpenOrders(filters);
  return Response.json(orders.map((order) => toPublicOrder(order, user)));
}
