import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/accounts/session.server";
import { listOpenOrders, toPublicOrder } from "~/services/affiliates/service-order-views.server";
import { requestServiceForPurchase } from "~/services/affiliates/service-orders.server";
import { jsonError } from "~/http/http.server";
import { readJsonBody } from "~/http/json-body.server";
import { errorJson } from "~/http/respond.server";
import {
  parseServiceOrderFilters,
  PurchaseServiceRequestSchema,
} from "~/services/affiliates/schemas";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** GET /api/service-orders: open orders, filtered like the board (serviceType, pickupState…). */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const filters = parseServiceOrderFilters(new URL(request.url).searchParams);
  const orders = await listOpenOrders(filters);
  return Response.json(orders.map((order) => toPublicOrder(order, user)));
}

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/**
 * POST /api/service-orders: the buyer of a won lot asks for shipping ({purchaseId,
 * serviceType: "shipping", delivery: "City, ST"}) or export ({…, exportPort, destinationCountry}).
 */
async function act({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const user = await requireUser(request);
  try {
    const input = await readJsonBody(request, PurchaseServiceRequestSchema);
    const order = await requestServiceForPurchase(user.id, input);
    return Response.json(toPublicOrder(order, user), { status: 201 });
  } catch (error) {
    // the body reader's refusal is thrown as its answer
    return error instanceof Response ? error : errorJson(error);
  }
}
