import type { ActionFunctionArgs } from "@remix-run/node";
import { whileDatabaseUp } from "~/platform/availability.server";
import { BidError, placeBid } from "~/modules/auctions/bidding.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";
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
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return jsonError(400, "The request body must be JSON.");
  }
  const parsed = BidApiSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return jsonError(400, `Invalid Bid: ${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  const { vehicleId, amount, isProxyBid, maxAmount } = parsed.data;
  try {
    const placed = await placeBid(user.id, {
      lotId: String(vehicleId),
      amount,
      isProxy: isProxyBid,
      maxAmount: isProxyBid ? (maxAmount ?? null) : null,
    });
    const message =
      placed.outcome === "leading"
        ? "Bid Placed Successfully: Your bid has been submitted to the auction."
        : "Outbid: Your bid was placed, but another bidder's proxy maximum is higher.";
    return Response.json(
      {
        message,
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
    if (!(error instanceof BidError)) throw error;
    return jsonError(error.status, error.message, {
      title: error.title,
      description: error.description,
      field: error.field,
    });
  }
}
