// Many bidders at once through the real service and database; then every invariant must hold.
import { QueryTypes } from "sequelize";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { resetClock, setClock } from "~/platform/clock.server";
import { closeEndedLots } from "~/services/auctions/closer.server";
import { BidError, setInProcessBidQueue } from "~/services/auctions/bidding.server";
import { placeBid } from "../support/bids";
import { createTestUser } from "../support/auth";
import { createTestLot } from "../support/lots";
import { nextTurn } from "../support/wait";

type Row = {
  id: string;
  lot_id: string;
  user_id: string;
  amount: string;
  max_amount: string;
  automatic: boolean;
  max_raise: boolean;
  created_at: Date;
};

const cents = (value: string) => Math.round(Number(value) * 100);

async function rowsFor(lotId: string) {
  return sequelize.query<Row>("SELECT * FROM bids WHERE lot_id = :lotId ORDER BY id", {
    replacements: { lotId },
    type: QueryTypes.SELECT,
  });
}

/**
 * Replays the rows and checks the lot's price, leader, count and the increment of every bid, and
 * the leader rule (docs/decisions/2702): a raise comes only from the leader and moves nothing
 * anyone sees; the price after each bid is what the proxy rules give at that moment.
 */
async function checkLot(lotId: string) {
  const [lot] = await sequelize.query<{
    current_bid: string;
    bid_count: number;
    high_bidder_id: string | null;
    high_max: string | null;
    ends_at: Date;
  }>("SELECT * FROM lots WHERE id = :lotId", { replacements: { lotId }, type: QueryTypes.SELECT });
  const rows = await rowsFor(lotId);
  expect(lot.bid_count).toBe(rows.filter((r) => !r.max_raise).length);
  let price = 0;
  let expected = 0;
  const maxima = new Map<string, { max: number; id: number }>();
  const ranking = () =>
    [...maxima.entries()].sort((a, b) => b[1].max - a[1].max || a[1].id - b[1].id);
  for (const row of rows) {
    expect(new Date(row.created_at).getTime()).toBeLessThan(new Date(lot.ends_at).getTime());
    if (!row.automatic) {
      if (row.max_raise) {
        // only the leader raises, only upwards
        const [leaderId, leader] = ranking()[0];
        expect(row.user_id).toBe(leaderId);
        expect(cents(row.max_amount)).toBeGreaterThan(leader.max);
      } else {
        expect(cents(row.amount)).toBeGreaterThanOrEqual(price + 5000);
      }
      const held = maxima.get(row.user_id);
      if (!held || cents(row.max_amount) > held.max)
        maxima.set(row.user_id, { max: cents(row.max_amount), id: Number(row.id) });
      if (row.max_raise) continue;
      const [[leaderId, leader], runnerUp] = ranking();
      expected = Math.max(
        runnerUp ? Math.min(leader.max, runnerUp[1].max + 5000) : 0,
        leaderId === row.user_id ? cents(row.amount) : 0,
        expected,
      );
    }
    // an automatic answer may equal the typed bid it answers (equal maxima: earlier wins)
    expect(cents(row.amount)).toBeGreaterThanOrEqual(price);
    price = cents(row.amount);
  }
  expect(cents(lot.current_bid)).toBe(price);
  if (rows.length === 0) return lot;
  const [leaderId, leader] = ranking()[0];
  expect(lot.high_bidder_id).toBe(leaderId);
  expect(cents(lot.high_max!)).toBe(leader.max);
  expect(cents(lot.current_bid)).toBe(expected);
  return lot;
}

/** No user leads lots (plus unpaid purchases) beyond their deposit. */
async function checkDeposits() {
  const over = await sequelize.query(
    `SELECT u.id FROM users u
      WHERE u.deposit < COALESCE((SELECT sum(high_max) FROM lots
                                   WHERE status = 'active' AND high_bidder_id = u.id), 0)
                      + COALESCE((SELECT sum(amount) FROM purchases
                                   WHERE user_id = u.id AND status = 'pending'), 0)`,
    { type: QueryTypes.SELECT },
  );
  expect(over).toEqual([]);
}

async function attempt(userId: string, input: Parameters<typeof placeBid>[1]) {
  try {
    await placeBid(userId, input);
    return "accepted" as const;
  } catch (error) {
    if (error instanceof BidError) return error.title;
    throw error;
  }
}

afterEach(() => {
  resetClock();
  setInProcessBidQueue(true);
});

describe.each([
  ["the row lock alone (as with many app machines)", false],
  ["the in-process queue in front of the row lock", true],
])("concurrent bidding through %s", (_name, queue) => {
  beforeEach(() => setInProcessBidQueue(queue));

  it("200 simultaneous bids on one lot lose nothing and follow the rules", async () => {
    const lot = await createTestLot();
    const users = await Promise.all(
      Array.from({ length: 200 }, () => createTestUser({ verified: true, deposit: "20000.00" })),
    );
    const outcomes = await Promise.all(
      users.map((user, i) =>
        attempt(
          user.id,
          i % 2 === 0
            ? { lotId: lot.id, amount: String(50 + i * 25), isProxy: false }
            : {
                lotId: lot.id,
                amount: String(50 + i * 25),
                isProxy: true,
                maxAmount: String(100 + i * 25 + ((i * 37) % 900)),
              },
        ),
      ),
    );
    const accepted = outcomes.filter((o) => o === "accepted").length;
    expect(outcomes.every((o) => o === "accepted" || o === "Invalid Bid")).toBe(true);
    expect(accepted).toBeGreaterThan(5);
    const rows = await rowsFor(lot.id);
    expect(rows.filter((r) => !r.automatic)).toHaveLength(accepted);
    await checkLot(lot.id);
    await checkDeposits();
  });

  it("50 bidders across 20 lots while the lots end and the closer runs", async () => {
    const offset = { ms: 0 };
    setClock({ now: () => new Date(Date.now() + offset.ms) });
    const base = Date.now();
    const lots = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createTestLot({
          startsAt: new Date(base - 60_000),
          endsAt: new Date(base + 10 * 60_000 + i * 1000),
        }),
      ),
    );
    const users = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        createTestUser({ verified: true, deposit: `${1000 + (i % 5) * 1000}.00` }),
      ),
    );
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const outcomes: string[] = [];
    let placed = 0;
    const bidders = users.map(async (user) => {
      for (let round = 0; round < 8; round++) {
        const lot = lots[random(lots.length)];
        const [{ current_bid }] = await sequelize.query<{ current_bid: string }>(
          "SELECT current_bid FROM lots WHERE id = :id",
          { replacements: { id: lot.id }, type: QueryTypes.SELECT },
        );
        const amount = cents(current_bid) + 5000 + random(20) * 1000;
        const proxy = random(2) === 0;
        outcomes.push(
          await attempt(user.id, {
            lotId: lot.id,
            amount: (amount / 100).toFixed(2),
            isProxy: proxy,
            maxAmount: proxy ? ((amount + 5000 + random(60) * 1000) / 100).toFixed(2) : undefined,
          }),
        );
        // half-way through, time jumps past every lot's end while bids are still coming in
        if (++placed === 200) offset.ms = 11 * 60_000;
      }
    });
    // the closer sweeps again as soon as its last sweep is done, while the bids come in
    const closer = (async () => {
      while (placed < 400) {
        await closeEndedLots();
        await nextTurn();
      }
    })();
    await Promise.all([...bidders, closer]);
    await closeEndedLots();

    expect(outcomes).toHaveLength(400);
    const allowed = [
      "accepted",
      "Invalid Bid",
      "Insufficient Funds",
      "Auction Ended",
      "Already Leading",
    ];
    expect(outcomes.filter((o) => !allowed.includes(o))).toEqual([]);
    expect(outcomes.filter((o) => o === "Auction Ended").length).toBeGreaterThan(0);
    const accepted = outcomes.filter((o) => o === "accepted").length;
    const typed = await sequelize.query<{ count: string }>(
      "SELECT count(*) AS count FROM bids WHERE NOT automatic AND lot_id IN (:ids)",
      { replacements: { ids: lots.map((l) => l.id) }, type: QueryTypes.SELECT },
    );
    expect(Number(typed[0].count)).toBe(accepted);
    for (const lot of lots) {
      const after = await checkLot(lot.id);
      const [closed] = await sequelize.query<{ status: string }>(
        "SELECT status FROM lots WHERE id = :id",
        { replacements: { id: lot.id }, type: QueryTypes.SELECT },
      );
      const [purchase] = await sequelize.query<{ user_id: string; amount: string }>(
        "SELECT user_id, amount FROM purchases WHERE lot_id = :id",
        { replacements: { id: lot.id }, type: QueryTypes.SELECT },
      );
      if (after.high_bidder_id) {
        expect(closed.status).toBe("sold");
        expect(purchase).toEqual({ user_id: after.high_bidder_id, amount: after.current_bid });
      } else {
        expect(closed.status).toBe("unsold");
        expect(purchase).toBeUndefined();
      }
    }
    await checkDeposits();
  });
});
