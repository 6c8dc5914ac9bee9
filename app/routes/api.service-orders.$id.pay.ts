// POST /api/service-orders/{id}/pay {price, source?}: the buyer confirms the quote of their unpaid
// job. `source: "deposit"` pays from the deposit ({paid: true, source: "deposit"}, or 409 when it
// does not cover it); otherwise, `source` left out included, a checkout is started
// ({paid: false, approvalUrl}: go there to pay). The deposit is never used unless asked for.
import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { errorJson, jsonError } from "~/http/respond.server";
import { readJsonBody } from "~/http/json-body.server";
import { requireUser } from "~/services/accounts/session.server";
import { PayTransportSchema } from "~/services/affiliates/schemas";
import {
  confirmTransportPayment,
  requireOwnTransportOrder,
} from "~/services/affiliates/transport-payments.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { guardResourceAction } from "~/http/route-guards.server";

const PayJsonSchema = z.object({
  price: PayTransportSchema.shape.price,
  source: PayTransportSchema.shape.source.default("gateway"),
});

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

async function act({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const user = await requireUser(request);
  try {
    // someone else's order is not found, whatever the body says (record 3202)
    await requireOwnTransportOrder(user.id, params.id ?? "");
    const input = await readJsonBody(request, PayJsonSchema);
    await consumeRateLimit(request, "payment", user.id);
    return Response.json(
      await confirmTransportPayment(user.id, params.id ?? "", input.price, input.source),
    );
  } catch (error) {
    // the body reader's and the rate limit's refusals are thrown as their answers
    return error instanceof Response ? error : errorJson(error);
  }
}
