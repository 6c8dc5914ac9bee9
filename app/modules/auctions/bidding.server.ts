import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import {
  BID_TEXTS,
  bidMessage,
  MIN_INCREMENT_CENTS,
  minimumBidLabel,
  SOFT_CLOSE_MS,
} from "~/modules/auctions/rules";
import { MIN_DEPOSIT_CENTS } from "~/modules/deposits/rules";
import { centsToDecimal, parseCents } from "~/utils/money";
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
  proxy: () => new BidError(BID_TEXTS.proxy, 400, "maxAmount"),
  funds: () => new BidError(BID_TEXTS.funds, 400, "amount"),
  ended: () => new BidError(BID_TEXTS.ended, 409),
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
  /** leading: the bidder holds the lot; outbid: a standing proxy beat them at once. */
  outcome: "leading" | "outbid";
  currentBid: string;
  bidCount: number;
  endsAt: Date;
};

type PlaceBidRow = {
  code: "ok" | "not_found" | "unauthorized" | "verification" | "deposit" | "ended" | "minimum";
  bid_id: string | null;
  outcome: "leading" | "outbid" | null;
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
    default:
      throw new Error(`place_bid answered an unknown code: ${row.code}`);
  }
}

/**
 * Checks the bidder, records the bid, resolves proxies, moves the lot's price and tells the
 * outbid leader, all under the lot's row lock in ONE database call (the place_bid function in
 * db/migrations/20261122-1101, exposure from deposit_exposure since 20261123-0101): one round
 * trip per bid. The rules' numbers and texts live in rules.ts (auctions and deposits).
 */
export async function placeBid(userId: string, input: PlaceBidInput): Promise<PlaceBidResult> {
  const amount = parseCents(input.amount);
  if (amount === null || amount <= 0) throw BID_ERRORS.cents("amount");
  let max = amount;
  if (input.isProxy) {
    const parsed = parseCents(input.maxAmount ?? "");
    if (input.maxAmount === null || input.maxAmount === undefined || input.maxAmount === "")
      throw BID_ERRORS.proxy();
    if (parsed === null) throw BID_ERRORS.cents("maxAmount");
    max = parsed;
  }
  if (!/^\d{1,18}$/.test(String(input.lotId))) throw BID_ERRORS.notFound();

  const [row] = await oneAtATimePerLot(String(input.lotId), () =>
    sequelize.query<PlaceBidRow>(
      `SELECT * FROM place_bid(:lotId, :userId, :amount, :max, :isProxy, :at, :minDeposit,
         :increment, make_interval(secs => :softCloseSeconds))`,
      {
        type: QueryTypes.SELECT,
        replacements: {
          lotId: String(input.lotId),
          userId,
          amount: centsToDecimal(amount),
          max: centsToDecimal(max),
          isProxy: input.isProxy,
          at: now(),
          minDeposit: centsToDecimal(MIN_DEPOSIT_CENTS),
          increment: centsToDecimal(MIN_INCREMENT_CENTS),
          softCloseSeconds: SOFT_CLOSE_MS / 1000,
        },
      },
    ),
  );
  if (row.code !== "ok") throw refusal(row);
  return {
    bidId: String(row.bid_id),
    outcome: row.outcome!,
    currentBid: centsToDecimal(parseCents(row.current_bid)!),
    bidCount: row.bid_count!,
    endsAt: new Date(row.ends_at!),
  };
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
