import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/services/adapters/clock.server";
import { availableBuyingPower, exposure } from "~/services/buying-power.server";
import { notify } from "~/services/notifications.server";
import { centsToDecimal, formatUsd, parseCents } from "~/utils/money";

export const MIN_DEPOSIT_CENTS = 400_00;
export const MIN_INCREMENT_CENTS = 50_00;
export const SOFT_CLOSE_MS = 2 * 60 * 1000;

/** A rule the bid broke, with the texts SPEC.md §5 gives (title + description). */
export class BidError extends Error {
  constructor(
    readonly title: string,
    readonly description: string,
    readonly status = 400,
    readonly field: "amount" | "maxAmount" | null = null,
  ) {
    super(`${title}: ${description}`);
    this.name = "BidError";
  }
}

export const BID_ERRORS = {
  verification: () =>
    new BidError("Verification Required", "Please complete KYC verification before bidding.", 403),
  deposit: () =>
    new BidError("Deposit Required", "Minimum $400 deposit required before bidding.", 403),
  minimum: (minCents: number) =>
    new BidError("Invalid Bid", `Minimum bid is ${formatUsd(minCents, "cents")}`, 400, "amount"),
  cents: (field: "amount" | "maxAmount") =>
    new BidError("Invalid Bid", "Enter an amount in dollars and cents (e.g. 1250.50).", 400, field),
  proxy: () =>
    new BidError(
      "Invalid Proxy Bid",
      "Maximum proxy bid must be higher than initial bid.",
      400,
      "maxAmount",
    ),
  funds: () =>
    new BidError("Insufficient Funds", "Bid amount exceeds your available deposit.", 400, "amount"),
  ended: () => new BidError("Auction Ended", "This auction has ended; bids are closed.", 409),
  notFound: () => new BidError("Lot Not Found", "This auction lot does not exist.", 404),
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

type LockedLot = {
  id: string;
  status: string;
  starts_at: Date;
  ends_at: Date;
  current_bid: string;
  bid_count: number;
  high_bidder_id: string | null;
  high_max: string | null;
  year: number;
  make: string;
  model: string;
};

type Standing = { user_id: string; max_amount: string; id: string };

function q<T extends object>(
  sql: string,
  replacements: Record<string, unknown>,
  transaction: Transaction,
) {
  return sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction });
}

/** Checks the bidder, then records the bid and resolves proxies, all under the lot's row lock. */
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

  return oneAtATimePerLot(String(input.lotId), () =>
    sequelize.transaction(async (transaction) => {
      const [lot] = await q<LockedLot>(
        `SELECT id, status, starts_at, ends_at, current_bid, bid_count, high_bidder_id, high_max,
              year, make, model
         FROM lots WHERE id = :lotId FOR UPDATE`,
        { lotId: String(input.lotId) },
        transaction,
      );
      if (!lot) throw BID_ERRORS.notFound();
      // NO KEY UPDATE still serializes this user's bids and deposit changes, but lets other bids
      // insert rows that merely reference the user (FK key-share locks) without deadlocking.
      const [bidder] = await q<{ verified: boolean; deposit: string }>(
        "SELECT verified, deposit FROM users WHERE id = :userId FOR NO KEY UPDATE",
        { userId },
        transaction,
      );
      if (!bidder) throw new BidError("Unauthorized", "You are logged out.", 401);
      if (!bidder.verified) throw BID_ERRORS.verification();
      const deposit = parseCents(bidder.deposit) ?? 0;
      if (deposit < MIN_DEPOSIT_CENTS) throw BID_ERRORS.deposit();

      const at = now();
      if (lot.status !== "active" || at.getTime() >= new Date(lot.ends_at).getTime())
        throw BID_ERRORS.ended();

      const previousPrice = parseCents(lot.current_bid) ?? 0;
      const minimum = previousPrice + MIN_INCREMENT_CENTS;
      if (amount < minimum) throw BID_ERRORS.minimum(minimum);
      if (input.isProxy && max <= amount) throw BID_ERRORS.proxy();

      const held = parseCents(await exposure(userId, transaction, { excludeLotId: lot.id })) ?? 0;
      const available = Math.max(0, deposit - held);
      if (amount > available || max > available) throw BID_ERRORS.funds();

      // Records the bid and reads each bidder's standing maximum (their highest; the earliest bid
      // at it breaks ties) in one statement: the new row is added to the rows it cannot yet see.
      const top = await q<Standing & { placed_id: string }>(
        `WITH placed AS (
         INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, automatic, created_at)
         VALUES (:lotId, :userId, :amount, :max, :isProxy, false, :at)
         RETURNING id, user_id, max_amount
       ), standing AS (
         SELECT DISTINCT ON (user_id) user_id, max_amount, id FROM (
           SELECT user_id, max_amount, id FROM bids WHERE lot_id = :lotId AND NOT automatic
           UNION ALL SELECT user_id, max_amount, id FROM placed
         ) typed ORDER BY user_id, max_amount DESC, id ASC
       )
       SELECT user_id, max_amount, id, (SELECT id FROM placed) AS placed_id
         FROM standing ORDER BY max_amount DESC, id ASC LIMIT 2`,
        {
          lotId: lot.id,
          userId,
          amount: centsToDecimal(amount),
          max: centsToDecimal(max),
          isProxy: input.isProxy,
          at,
        },
        transaction,
      );
      const placed = { id: top[0].placed_id };
      const leader = top[0];
      const leaderMax = parseCents(leader.max_amount)!;
      const runnerUpMax = top[1] ? parseCents(top[1].max_amount)! : null;
      const price = Math.max(
        runnerUpMax === null ? 0 : Math.min(leaderMax, runnerUpMax + MIN_INCREMENT_CENTS),
        leader.user_id === userId ? amount : 0,
        previousPrice,
      );

      const leaderTyped = leader.user_id === userId ? amount : null;
      // the engine raises for the leader's standing proxy when the price passes what they typed
      const automatic = leaderTyped === null ? price > previousPrice : price > leaderTyped;

      const endsAt = new Date(lot.ends_at);
      const started = at.getTime() >= new Date(lot.starts_at).getTime();
      const softClosed =
        started && endsAt.getTime() - at.getTime() <= SOFT_CLOSE_MS
          ? new Date(at.getTime() + SOFT_CLOSE_MS)
          : endsAt;

      const [updated] = await q<{ bid_count: number }>(
        `WITH raise AS (
         INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, automatic, created_at)
         SELECT :lotId, :leader, :price, :leaderMax, true, true, :at WHERE :automatic
         RETURNING 1
       )
       UPDATE lots SET current_bid = :price, high_bidder_id = :leader, high_max = :leaderMax,
              bid_count = bid_count + 1 + (SELECT count(*) FROM raise), ends_at = :endsAt,
              updated_at = now()
        WHERE id = :lotId RETURNING bid_count`,
        {
          lotId: lot.id,
          price: centsToDecimal(price),
          leader: leader.user_id,
          leaderMax: centsToDecimal(leaderMax),
          automatic,
          at,
          endsAt: softClosed,
        },
        transaction,
      );

      if (lot.high_bidder_id && lot.high_bidder_id !== leader.user_id) {
        await notify(
          lot.high_bidder_id,
          {
            kind: "outbid",
            title: "You were outbid",
            body: `${lot.year} ${lot.make} ${lot.model}: the current bid is now ${formatUsd(price, "cents")}.`,
            link: `/auctions/${lot.id}`,
          },
          transaction,
        );
      }

      return {
        bidId: placed.id,
        outcome: leader.user_id === userId ? "leading" : "outbid",
        currentBid: centsToDecimal(price),
        bidCount: updated.bid_count,
        endsAt: softClosed,
      };
    }),
  );
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

/** What the bid form needs to know about the signed-in user (checked again on every bid). */
export async function bidderContext(
  user: { id: string; verified: boolean; deposit: string },
  forLotId?: string,
) {
  const blocker = !user.verified
    ? BID_ERRORS.verification().message
    : (parseCents(user.deposit) ?? 0) < MIN_DEPOSIT_CENTS
      ? BID_ERRORS.deposit().message
      : null;
  const available = await availableBuyingPower(user.id, undefined, { excludeLotId: forLotId });
  return { available, blocker };
}
