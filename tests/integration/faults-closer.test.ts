// The auction closer killed half-way: a run is one transaction, so whatever it had not committed
// is rolled back whole, and the next run (the sweep, or the lot's close job) finishes the job
// exactly once: each ended lot closed once, one purchase per won lot, one "You won" each, and the
// winner's deposit holds the purchase instead of the bid (never both).
import { spawn, type ChildProcess } from "node:child_process";
import { QueryTypes } from "sequelize";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sequelize } from "~/models/db.server";
import { closeEndedLots, closeLotIfEnded } from "~/services/auctions/closer.server";
import { placeBid } from "../support/bids";
import { exposure } from "~/services/auctions/buying-power.server";
import { createTestUser } from "../support/auth";
import { cents } from "../support/faults";
import { createTestLot } from "../support/lots";
import { waitFor } from "../support/wait";

type Snapshot = {
  id: string;
  high_bidder_id: string | null;
  current_bid: string;
  high_max: string | null;
};

const select = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });

/**
 * `ended` lots that have ended (most with bids, some without) and `running` lots still open.
 * Bids go through the real engine; the end time is then moved into the past.
 */
async function arrange(ended: number, running = 3) {
  const bidders = await Promise.all(
    Array.from({ length: 6 }, () => createTestUser({ verified: true, deposit: "100000.00" })),
  );
  const lots = await Promise.all(Array.from({ length: ended + running }, () => createTestLot()));
  for (const [i, lot] of lots.entries()) {
    if (i % 4 === 3) continue; // every fourth lot gets no bid
    const a = bidders[i % bidders.length];
    const b = bidders[(i + 1) % bidders.length];
    await placeBid(a.id, {
      lotId: lot.id,
      amount: "100",
      isProxy: true,
      maxAmount: String(800 + i * 10),
    });
    await placeBid(b.id, { lotId: lot.id, amount: String(200 + i * 5), isProxy: false });
  }
  const endedIds = lots.slice(0, ended).map((l) => String(l.id));
  await sequelize.query(
    "UPDATE lots SET ends_at = now() - interval '1 minute' WHERE id IN (:ids)",
    { replacements: { ids: endedIds } },
  );
  const snapshot = await select<Snapshot>(
    "SELECT id, high_bidder_id, current_bid, high_max FROM lots WHERE id IN (:ids) ORDER BY id",
    { ids: endedIds },
  );
  expect(snapshot.filter((l) => l.high_bidder_id).length).toBeGreaterThan(ended / 2);
  return {
    snapshot,
    endedIds,
    runningIds: lots.slice(ended).map((l) => String(l.id)),
    bidderIds: bidders.map((b) => b.id),
  };
}

async function closedCount(ids: string[]) {
  const [{ count }] = await select<{ count: string }>(
    "SELECT count(*) AS count FROM lots WHERE id IN (:ids) AND status <> 'active'",
    { ids },
  );
  return Number(count);
}

/** Runs the closer until every one of `ids` is closed (a killed run's lock may linger briefly). */
async function finish(ids: string[]) {
  await waitFor(
    async () => {
      if ((await closedCount(ids)) === ids.length) return true;
      await closeEndedLots();
      return false;
    },
    { what: "the closer to finish", timeout: 15_000, every: 50 },
  );
}

/** Each ended lot closed once, with exactly what closing it means; running lots untouched. */
async function expectClosedExactlyOnce(arranged: Awaited<ReturnType<typeof arrange>>) {
  const { snapshot, endedIds, runningIds, bidderIds } = arranged;
  const lots = await select<{ id: string; status: string; closed_at: Date | null }>(
    "SELECT id, status, closed_at FROM lots WHERE id IN (:ids)",
    { ids: [...endedIds, ...runningIds] },
  );
  const byId = new Map(lots.map((l) => [String(l.id), l]));
  const purchases = await select<{
    id: string;
    lot_id: string;
    user_id: string;
    amount: string;
    status: string;
  }>("SELECT id, lot_id, user_id, amount, status FROM purchases WHERE lot_id IN (:ids)", {
    ids: [...endedIds, ...runningIds],
  });
  const won = await select<{ user_id: string; link: string }>(
    "SELECT user_id, link FROM notifications WHERE kind = 'auction_won' AND user_id IN (:users)",
    { users: bidderIds },
  );
  for (const lot of snapshot) {
    const after = byId.get(String(lot.id))!;
    expect(after.closed_at, `lot ${lot.id} closed`).not.toBeNull();
    const mine = purchases.filter((p) => String(p.lot_id) === String(lot.id));
    // "You won" links to the lot's invoice (docs/decisions/1701)
    const notes = won.filter((n) => mine.some((p) => n.link === `/purchases/${p.id}`));
    if (lot.high_bidder_id) {
      expect(after.status).toBe("sold");
      expect(mine.map(({ id: _id, ...rest }) => rest)).toEqual([
        { lot_id: lot.id, user_id: lot.high_bidder_id, amount: lot.current_bid, status: "pending" },
      ]);
      expect(notes.map((n) => n.user_id)).toEqual([lot.high_bidder_id]);
    } else {
      expect(after.status).toBe("unsold");
      expect(mine).toEqual([]);
      expect(notes).toEqual([]);
    }
  }
  for (const id of runningIds) {
    expect(byId.get(id)).toMatchObject({ status: "active", closed_at: null });
  }
  // Holds: each winner's deposit holds their invoices' whole totals (bid and fees: record 3510)
  // plus the maxima of running lots they lead.
  const totals = await select<{ id: string; total: string }>(
    `SELECT id, amount + buyer_fee + internet_fee + gate_fee + broker_fee AS total
       FROM purchases WHERE lot_id IN (:ids)`,
    { ids: [...endedIds, ...runningIds] },
  );
  const totalOf = new Map(totals.map((t) => [String(t.id), cents(t.total)]));
  const running = await select<{ high_bidder_id: string | null; high_max: string | null }>(
    "SELECT high_bidder_id, high_max FROM lots WHERE id IN (:ids)",
    { ids: runningIds },
  );
  for (const userId of bidderIds) {
    const bought = purchases
      .filter((p) => p.user_id === userId)
      .reduce((sum, p) => sum + totalOf.get(String(p.id))!, 0);
    const leading = running
      .filter((l) => l.high_bidder_id === userId)
      .reduce((sum, l) => sum + cents(l.high_max!), 0);
    expect(cents(await exposure(userId)), `holds of ${userId}`).toBe(bought + leading);
  }
  // and nothing is left to do
  expect(await closeEndedLots()).toBe(0);
}

let child: ChildProcess | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  // a failed test must not leave a frozen closer holding the lock
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

describe("the auction closer killed half-way", () => {
  it("SIGKILL mid-batch: its open batch rolls back whole, the next run closes each lot once", async () => {
    const arranged = await arrange(40);
    const { endedIds } = arranged;
    // Node itself runs the child (the tsx CLI would put a process in between, and SIGKILL must
    // reach the one holding the connection). It closes in batches of 15 and freezes after 20
    // lots: batch one committed, five lots of batch two done inside its open transaction.
    const running = spawn(process.execPath, ["--import", "tsx", "tests/support/closer-child.ts"], {
      env: { ...process.env, STOP_AFTER_LOTS: "20", CLOSER_BATCH: "15" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = running;
    let output = "";
    running.stdout.on("data", (chunk: Buffer) => (output += chunk));
    running.stderr.on("data", (chunk: Buffer) => (output += chunk));
    const exited = new Promise<number | null>((resolve) =>
      running.on("exit", (code) => resolve(code)),
    );
    await waitFor(
      () => {
        if (running.exitCode !== null) throw new Error(`the closer child exited:\n${output}`);
        return output.includes("HALFWAY");
      },
      { what: "the closer child half-way", timeout: 30_000, detail: () => output },
    );
    expect(output).toContain("HALFWAY 20");
    // Frozen: only the committed batch shows. Another sweep closes the ended lots the frozen
    // one does not hold (it skips the 15 locked rows of the open batch and waits for none).
    expect(await closedCount(endedIds)).toBe(15);
    expect(await closeEndedLots()).toBe(endedIds.length - 30);
    // A locked lot's own close job finds it held and closes it once the lock is gone (below).

    running.kill("SIGKILL");
    expect(await exited).toBeNull();
    expect(output).not.toContain("DONE");
    // The killed transaction left nothing behind: the first batch and the other sweep's.
    expect(await closedCount(endedIds)).toBe(endedIds.length - 15);

    await finish(endedIds);
    await expectClosedExactlyOnce(arranged);
  }, 60_000);

  it("a failure injected after N lots: nothing of that run stays; racing closers close each once", async () => {
    const arranged = await arrange(30);
    const { endedIds } = arranged;
    const query = sequelize.query.bind(sequelize);
    let closing = 0;
    vi.spyOn(sequelize, "query").mockImplementation(((...args: Parameters<typeof query>) => {
      const sql = typeof args[0] === "string" ? args[0] : "";
      if (/^\s*UPDATE lots SET status = '(sold|unsold)'/.test(sql) && ++closing > 7)
        return Promise.reject(new Error("the machine went away"));
      return query(...args);
    }) as typeof sequelize.query);
    await expect(closeEndedLots()).rejects.toThrow("the machine went away");
    vi.restoreAllMocks();
    expect(closing).toBe(8);
    expect(await closedCount(endedIds)).toBe(0);

    // Two sweeps and every lot's own close job, all at once.
    const outcomes = await Promise.all([
      closeEndedLots(),
      closeEndedLots(),
      ...endedIds.map((id) => closeLotIfEnded(id)),
    ]);
    const [runA, runB, ...lazy] = outcomes as [number, number, ...Array<string | null>];
    expect(runA + runB + lazy.filter((o) => o !== null).length).toBe(endedIds.length);
    await finish(endedIds);
    await expectClosedExactlyOnce(arranged);
  });
});
