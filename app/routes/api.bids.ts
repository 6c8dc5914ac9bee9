import type { ActionFunctionArgs } from "@remix-run/node";
import { whileDatabaseUp } from "~/platform/availability.server";
import { placeBid } from "~/modules/auctions/bidding.server";
import { BID_PLACED, bidMessage } from "~/modules/auctions/rules";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/modules/accounts/session.server";
import { errorJson, jsonError } from "~/http/respond.server";
import { readJsonBody } from "~/http/json-body.server";
import { BidApiSchema } from "~/modules/auctions/schemas";

export function loader() {
  return jsonError(405, "Use POST to place a bid.");
}

/**
 * POST /api/bids {vehicleId, amount, isProxyBid, maxAmount}. With the database down: 503. A bid
 * cut off by an outage may have been recorded (the commit can land before the answer is lost).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Use POST to place a bid.");
  return whileDatabaseUp(request, () => placeFromRequest(request));
}

async function placeFromRequest(request: Request) {
  const user = await requireUser(request);
  await consumeRateLimit(request, "bid", user.id);
  try {
    const { vehicleId, amount, isProxyBid, maxAmount } = await readJsonBody(request, BidApiSchema);
    const placed = await placeBid(user.id, {
      lotId: String(vehicleId),
      amount,
      isProxy: isProxyBid,
      maxAmount: isProxyBid ? (maxAmount ?? null) : null,
    });
    return Response.json(
      {
        message: bidMessage(BID_PLACED[placed.outcome]),
        bid: {
          id: placed.bidId,
          vehicleId: String(vehicleId),
          outcome: placed.outcome,
          currentBid: placed.currentBid,
          bidCount: placed.bidCount,
          endsAt: placed.endsAt.toISOString(),
        },
      },
      { status: 201 },
    );
  } catch (error) {
    // the body reader's refusal (400/413/415) is answered as it is, like a bid's UserError
    return error instanceof Response ? error : errorJson(error);
  }
}
