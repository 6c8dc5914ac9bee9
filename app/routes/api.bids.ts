import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { checkBidInput, placeBid, type PlaceBidInput } from "~/services/auctions/bidding.server";
import { BID_PLACED, bidMessage } from "~/services/auctions/rules";
import { consumeRateLimit, tooManyRequests } from "~/platform/rate-limit.server";
import { notSignedIn, requireUser, sessionId } from "~/services/accounts/session.server";
import { requireSameOrigin } from "~/http/http.server";
import { errorJson, jsonError } from "~/http/respond.server";
import { readJsonBody } from "~/http/json-body.server";
import { BidApiSchema } from "~/services/auctions/schemas";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

function load() {
  return jsonError(405, "Use POST to place a bid.");
}

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/**
 * POST /api/bids {vehicleId, amount, isProxyBid, maxAmount}. With the database down: 503. A bid
 * cut off by an outage may have been recorded (the commit can land before the answer is lost).
 */
async function act({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Use POST to place a bid.");
  return placeFromRequest(request);
}

/**
 * One database call per bid (docs/decisions/1903), through placeBid as the lot page's form
 * (docs/decisions/3602): the session, the bid limiter and the bid itself are one statement. A
 * request without a session cookie is a 401 at once; a malformed bid is answered as before (the
 * caller checked, their limiter moved, then the 400), which costs the separate calls only on that
 * path.
 */
async function placeFromRequest(request: Request) {
  requireSameOrigin(request);
  const session = await sessionId(request);
  if (!session) throw notSignedIn(request);
  let vehicleId: string | number;
  let input: PlaceBidInput;
  try {
    const body = await readJsonBody(request, BidApiSchema);
    vehicleId = body.vehicleId;
    input = {
      lotId: String(body.vehicleId),
      amount: body.amount,
      isProxy: body.isProxyBid,
      maxAmount: body.isProxyBid ? (body.maxAmount ?? null) : null,
    };
    checkBidInput(input);
  } catch (error) {
    return refuseMalformed(request, error);
  }
  try {
    const result = await placeBid(session, input);
    if (result.kind === "signed_out") throw notSignedIn(request);
    if (result.kind === "rate_limited") throw tooManyRequests(request, result.retryMs);
    const placed = result.bid;
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
    if (error instanceof Response) throw error;
    return errorJson(error);
  }
}

/** A bid refused before it reached the database: who asks first, their limiter, then why. */
async function refuseMalformed(request: Request, error: unknown) {
  const user = await requireUser(request);
  await consumeRateLimit(request, "bid", user.id);
  // the body reader's refusal (400/413/415) is answered as it is, like a bid's UserError
  return error instanceof Response ? error : errorJson(error);
}
