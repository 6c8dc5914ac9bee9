// Tests place bids the one way the app does (docs/decisions/3602): placeBid with a session, so
// place_bid_in_session and place_bid run as they do for the lot page's form and POST /api/bids.
import { randomBytes } from "node:crypto";
import { Session } from "~/models/user.server";
import {
  placeBid as servicePlaceBid,
  type PlaceBidInput,
  type PlaceBidResult,
} from "~/services/auctions/bidding.server";

/**
 * Its own limiter, out of reach: tests that bid often as one person are about the bid, not the
 * limit (the limit's answers: tests/integration/auctions-bid-one-call.test.ts).
 */
const TEST_LIMITER = { prefix: "bid-test", points: 1_000_000, ms: 60_000 };

const sessions = new Map<string, string>();

/** A session id (what a cookie's token hashes to) for `userId`, made once per test file. */
async function sessionOf(userId: string) {
  let id = sessions.get(userId);
  if (!id) {
    id = randomBytes(32).toString("hex");
    await Session.create({ id, userId, expiresAt: new Date(Date.now() + 24 * 3_600_000) });
    sessions.set(userId, id);
  }
  return id;
}

/** A bid by `userId`, signed in; a refusal throws its BidError as the app's callers see it. */
export async function placeBid(userId: string, input: PlaceBidInput): Promise<PlaceBidResult> {
  let result = await servicePlaceBid(await sessionOf(userId), input, TEST_LIMITER);
  if (result.kind === "signed_out") {
    // a test that cleared the sessions (or signed the person out): a new one
    sessions.delete(userId);
    result = await servicePlaceBid(await sessionOf(userId), input, TEST_LIMITER);
  }
  if (result.kind !== "placed") throw new Error(`the test bidder's bid was ${result.kind}`);
  return result.bid;
}
