import { QueryTypes } from "sequelize";
import { sequelize, sql } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { countBid } from "~/platform/metrics.server";
import { limiterWindow } from "~/platform/rate-limit.server";
import {
  BID_TEXTS,
  bidMessage,
  MAX_BID_CENTS,
  MIN_INCREMENT_CENTS,
  minimumBidLabel,
  SOFT_CLOSE_MS,
} from "~/services/auctions/rules";
import { MIN_DEPOSIT_CENTS } from "~/services/deposits/rules";
import { centsToDecimal, parseCents, readTypedAmount } from "~/utils/money";
import { UserError } from "~/utils/user-error";

/** A rule the bid broke: the title and description people read, as a UserError. */
export class BidError extends UserError {
  readonly description: string;

  constructor(
    text: { title: string; description: string },
    status = 400,
    field: "amount" | "maxAmount" | null = null,
  ) {
    super(bidMessage(text), { status, title: text.title, field: field ?? undefined });
    this.description = text.description;
  }
}

export const BID_ERRORS = {
  unauthorized: () => new BidError(BID_TEXTS.unauthorized, 401),
  verification: () => new BidError(BID_TEXTS.verification, 403),
  deposit: () => new BidError(BID_TEXTS.deposit, 403),
  minimum: (minCents: number) =>
    new BidError(BID_TEXTS.minimum(minimumBidLabel(minCents)), 400, "amount"),
  cents: (field: "amount" | "maxAmount") => new BidError(BID_TEXTS.cents, 400, field),
  tooLarge: (field: "amount" | "maxAmount") => new BidError(BID_TEXTS.tooLarge, 400, field),
  proxy: () => new BidError(BID_TEXTS.proxy, 400, "maxAmount"),
  funds: () => new BidError(BID_TEXTS.funds, 400, "amount"),
  ended: () => new BidError(BID_TEXTS.ended, 409),
  notHigher: (maxCents: number) =>
    new BidError(BID_TEXTS.notHigher(minimumBidLabel(maxCents)), 400, "maxAmount"),
  notFound: () => new BidError(BID_TEXTS.notFound, 404),
};

export type PlaceBidInput = {
  lotId: string | number;
  amount: string;
  isProxy: boolean;
  maxAmount?: string | null;
};

export type PlaceBidResult = {
  bidId: string;
  /**
   * leading: the bidder holds the lot; outbid: a standing proxy beat them at once; raised: they
   * already led, and only their maximum moved (the leader rule, docs/decisions/2702).
   */
  outcome: "leading" | "outbid" | "raised";
  currentBid: string;
  bidCount: number;
  endsAt: Date;
};

type PlaceBidRow = {
  code: "ok" | "not_found" | "unauthorized" | "verification" | "deposit" | "ended" | "minimum";
  bid_id: string | null;
  outcome: "leading" | "outbid" | "raised" | null;
  current_bid: string | null;
  bid_count: number | null;
  ends_at: Date | null;
  minimum: string | null;
};

function refusal(row: PlaceBidRow): BidError {
  switch (row.code as string) {
    case "not_found":
      return BID_ERRORS.notFound();
    case "unauthorized":
      return BID_ERRORS.unauthorized();
    case "verification":
      return BID_ERRORS.verification();
    case "deposit":
      return BID_ERRORS.deposit();
    case "ended":
      return BID_ERRORS.ended();
    case "minimum":
      return BID_ERRORS.minimum(parseCents(row.minimum) ?? 0);
    case "proxy":
      return BID_ERRORS.proxy();
    case "funds":
      return BID_ERRORS.funds();
    case "not_higher":
      return BID_ERRORS.notHigher(parseCents(row.minimum) ?? 0);
    default:
      throw new Error(`place_bid_in_session answered an unknown code: ${row.code}`);
  }
}

/** A typed bid in cents; a refusal says the limit when the amount is only too large. */
function typedBid(value: string, field: "amount" | "maxAmount") {
  const read = readTypedAmount(value);
  if ("problem" in read) throw BID_ERRORS.cents(field);
  if (read.cents > MAX_BID_CENTS) throw BID_ERRORS.tooLarge(field);
  return read.cents;
}

/** The bid's numbers, checked before any database call (a refusal throws a BidError). */
export function checkBidInput(input: PlaceBidInput) {
  const amount = typedBid(input.amount, "amount");
  if (amount <= 0) throw BID_ERRORS.cents("amount");
  let max = amount;
  if (input.isProxy) {
    if (input.maxAmount === null || input.maxAmount === undefined || input.maxAmount === "")
      throw BID_ERRORS.proxy();
    max = typedBid(input.maxAmount, "maxAmount");
  }
  const lotId = String(input.lotId);
  if (!/^\d{1,18}$/.test(lotId)) throw BID_ERRORS.notFound();
  return {
    lotId,
    amount: centsToDecimal(amount),
    max: centsToDecimal(max),
    isProxy: input.isProxy,
  };
}

/** checkBidInput, counting a refusal of the numbers in the bid metrics. */
function checkedBid(input: PlaceBidInput) {
  try {
    return checkBidInput(input);
  } catch (error) {
    countBid("invalid");
    throw error;
  }
}

function placed(row: PlaceBidRow): PlaceBidResult {
  countBid(row.code);
  if (row.code !== "ok") throw refusal(row);
  return {
    bidId: String(row.bid_id),
    outcome: row.outcome!,
    currentBid: centsToDecimal(parseCents(row.current_bid)!),
    bidCount: row.bid_count!,
    endsAt: new Date(row.ends_at!),
  };
}

/** The limiter a bid moves, as place_bid_in_session takes it (rate-limit.server.ts's counter). */
export type BidLimiter = { prefix: string; points: number; ms: number };

export type SessionBidResult =
  | { kind: "signed_out" }
  | { kind: "rate_limited"; retryMs: number }
  | { kind: "placed"; userId: string; bid: PlaceBidResult };

/**
 * THE way a bid is placed: the lot page's form and POST /api/bids both come here, and here only
 * (docs/decisions/3602). One database call, place_bid_in_session (db/functions/030): the session
 * by its id, the bid limiter's counter, then place_bid (db/functions/020), which checks the
 * bidder, records the bid, resolves proxies, moves the lot's price and tells the outbid leader,
 * all under the lot's row lock (docs/decisions/1101, 1903). The rules' numbers and texts live in
 * rules.ts (auctions and deposits). A bid's refusal throws its BidError; a missing session or a
 * spent limiter is answered for the caller to turn into its 401 (or sign-in) or 429.
 */
export async function placeBid(
  sessionId: string,
  input: PlaceBidInput,
  limiter: BidLimiter = limiterWindow("bid"),
): Promise<SessionBidResult> {
  const bid = checkedBid(input);
  // straight through the pool, without Sequelize's query machinery (docs/decisions/2903)
  const [row] = await oneAtATimePerLot(bid.lotId, () =>
    sql<PlaceBidRow & { user_id: string | null; retry_ms: string | null }>(
      `SELECT * FROM place_bid_in_session($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        sessionId,
        limiter.prefix,
        limiter.points,
        limiter.ms,
        bid.lotId,
        bid.amount,
        bid.max,
        bid.isProxy,
        now(),
        centsToDecimal(MIN_DEPOSIT_CENTS),
        centsToDecimal(MIN_INCREMENT_CENTS),
        `${SOFT_CLOSE_MS / 1000} seconds`,
      ],
      // a write (sent as a SELECT of a function): never a replica's (docs/decisions/3701)
      { primary: true },
    ),
  );
  if ((row.code as string) === "signed_out") {
    countBid("signed_out");
    return { kind: "signed_out" };
  }
  if ((row.code as string) === "rate_limited") {
    countBid("rate_limited");
    return { kind: "rate_limited", retryMs: Number(row.retry_ms) };
  }
  return { kind: "placed", userId: row.user_id!, bid: placed(row) };
}

const lotQueues = new Map<string, Promise<unknown>>();
let queueing = true;

/** Tests turn the in-process queue off to prove the row lock alone (as with many machines). */
export function setInProcessBidQueue(on: boolean) {
  queueing = on;
}

/**
 * Runs one bid per lot at a time in this process. The row lock is what makes bids correct (across
 * machines too); queueing here only stops bids on a busy lot from each holding a pooled
 * connection while they wait for that lock, which would starve every other request.
 */
function oneAtATimePerLot<T>(lotId: string, work: () => Promise<T>): Promise<T> {
  if (!queueing) return work();
  const previous = lotQueues.get(lotId) ?? Promise.resolve();
  const run = previous.then(work, work);
  const settled = run.catch(() => undefined);
  lotQueues.set(lotId, settled);
  void settled.then(() => {
    if (lotQueues.get(lotId) === settled) lotQueues.delete(lotId);
  });
  return run;
}

/** Lots the user has bid on that are still open (the dashboard's Active Bids). */
export async function activeBidCount(userId: string): Promise<number> {
  const [row] = await sequelize.query<{ count: string }>(
    `SELECT count(DISTINCT b.lot_id) AS count FROM bids b JOIN lots l ON l.id = b.lot_id
      WHERE b.user_id = :userId AND l.status = 'active' AND l.ends_at > :now`,
    { replacements: { userId, now: now() }, type: QueryTypes.SELECT },
  );
  return Number(row.count);
}
