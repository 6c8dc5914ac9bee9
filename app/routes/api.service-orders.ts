import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AffiliateError } from "~/modules/affiliates/applications.server";
import { requireUser } from "~/modules/accounts/session.server";
import {
  listOpenOrders,
  requestServiceForPurchase,
  toPublicOrder,
} from "~/modules/affiliates/service-orders.server";
import { jsonError } from "~/http/http.server";
import {
  parseServiceOrderFilters,
  PurchaseServiceRequestSchema,
} from "~/modules/affiliates/schemas";

/** GET /api/service-orders: open orders, filtered like the board (serviceType, pickupState…). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const filters = parseServiceOrderFilters(new URL(request.url).searchParams);
  const orders = await listOpenOrders(filters);
  return Response.json(orders.map((order) => toPublicOrder(order, user)));
}

/**
 * POST /api/service-orders: the buyer of a won lot asks for shipping ({purchaseId,
 * serviceType: "shipping", delivery: "City, ST"}) or export ({…, exportPort, destinationCountry}).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const user = await requireUser(request);
  const parsed = PurchaseServiceRequestSchema.safeParse(await request.json().catch(() => ({})));
  if (!parsed.success) return jsonError(400, parsed.error.issues[0].message);
  try {
    const order = await requestServiceForPurchase(user.id, parsed.data);
    return Response.json(toPublicOrder(order, user), { status: 201 });
  } catch (error) {
    if (error instanceof AffiliateError) return jsonError(error.status, error.message);
    throw error;
  }
}
