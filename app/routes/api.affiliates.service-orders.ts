import type { LoaderFunctionArgs } from "@remix-run/node";
import { isApprovedAffiliate } from "~/services/affiliates/applications.server";
import { APPROVAL_REQUIRED } from "~/services/affiliates/messages";
import { requireUser } from "~/services/accounts/session.server";
import {
  listAffiliateOrders,
  toPublicOrder,
} from "~/services/affiliates/service-order-views.server";
import { jsonError } from "~/http/http.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** GET /api/affiliates/service-orders: the approved affiliate's own orders. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!(await isApprovedAffiliate(user.id))) return jsonError(403, APPROVAL_REQUIRED);
  const orders = await listAffiliateOrders(user.id);
  return Response.json(orders.map((order) => toPublicOrder(order, user)));
}
