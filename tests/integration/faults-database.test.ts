// PostgreSQL stopped (cleanly, and by a crash) and started again DURING a bid and deposit load
// against the running production server. While it is down every call answers a clear 503 within
// a bound; the same server recovers; and nothing is half-written: every bid answered 201 is in the
// table, every bid row belongs to a request that was accepted or cut off by the outage (never to
// one refused by a rule), each lot's counters agree with its rows, and the ledger agrees with the
// balances (each captured deposit credited exactly once, however often it was retried).
import os from "node:os";
import path from "node:path";
import fs from "node:fs/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalCluster, type LocalCluster } from "../../db/postgres";
import { ensureBuilt, startApp, waitFor200, type AppProcess } from "../support/app-process";
import { freePort } from "../support/cluster";
import { createDatabase, migrateDatabase } from "../support/databases";
import {
  bidRows,
  cents,
  checkHoldsWithinDeposits,
  checkLedger,
  checkLotAgreesWithBids,
  crashCluster,
  createBidders,
  createLots,
  dollars,
  sleep,
  type Person,
} from "../support/faults";
import { waitFor } from "../support/wait";

const SECRET = "faults-db-test-secret-0123456789abcdefghij";
// Durability across a crash is part of what is checked: commits stay synchronous (fsync is off,
// which only matters if the machine itself goes down).
const TUNING = ["-c fsync=off", "-c full_page_writes=off"];
/**
 * When a call with no answer counts as silence (a hang, not a slow machine): it is given up and
 * recorded with status -1, which no kind of call allows.
 */
const SILENCE_MS = 13_000;
const BIDDERS = 10;
const DEPOSITORS = 3;
const OPENING = "300000.00";

let cluster: LocalCluster;
let dataDir: string;
let url: string;
let app: AppProcess;
let db: pg.Client | null = null;

async function connect() {
  db = new pg.Client({ connectionString: url });
  await db.connect();
  return db;
}

beforeAll(async () => {
  await ensureBuilt();
  dataDir = path.join(os.tmpdir(), `bidyard-faults-db-${process.pid}`);
  await fs.rm(dataDir, { recursive: true, force: true });
  cluster = await startLocalCluster({ dataDir, port: await freePort(), tuning: TUNING });
  await createDatabase(cluster.urlFor("postgres"), "bidyard");
  url = cluster.urlFor("bidyard");
  await migrateDatabase(url);
  app = startApp(
    {
      NODE_ENV: "production",
      DATABASE_URL: url,
      SESSION_SECRET: SECRET,
      APP_URL: "https://bidyard.example",
      OIDC_ISSUER: "https://id.bidyard.example",
      OIDC_CLIENT_ID: "bidyard",
      OIDC_CLIENT_SECRET: "client-secret",
      // the TEST MODE gateway keeps its books in PostgreSQL: it goes down with the database
      ALLOW_TEST_PAYMENTS: "true",
      // one server on this machine, its files on its disk (docs/decisions/3105)
      FILE_STORAGE: "local",
    },
    await freePort(),
  );
  await waitFor200(`${app.url}/healthz`, app);
}, 120_000);

afterAll(async () => {
  await db?.end().catch(() => undefined);
  await app?.stop();
  await cluster?.stop();
  if (dataDir) await fs.rm(cluster?.dataDir ?? dataDir, { recursive: true, force: true });
});

type Phase = "up" | "stopping" | "down" | "back";
type Call = {
  kind: "bid" | "order" | "approve" | "confirm";
  status: number; // -1: no answer (network error or our own timeout)
  body: Record<string, unknown> | null;
  retryAfter: string | null;
  ms: number;
  at: number;
  /** Who made the call and on which lot, to tell which calls waited for the held locks. */
  user?: string;
  lot?: string;
  startedIn: Phase;
  endedIn: Phase;
};

function recorder(state: { phase: Phase }) {
  const calls: Call[] = [];
  /** The calls sent and not answered yet. */
  const open = new Set<Pick<Call, "kind" | "at" | "user" | "lot">>();
  async function call(
    kind: Call["kind"],
    path: string,
    init: RequestInit & { json?: unknown },
    tag: { user?: string; lot?: string } = {},
  ): Promise<Call> {
    const startedIn = state.phase;
    const started = Date.now();
    const sent = { kind, at: started, ...tag };
    open.add(sent);
    const headers = new Headers(init.headers);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("Content-Type", "application/json");
      headers.set("Accept", "application/json");
      body = JSON.stringify(init.json);
    }
    let status = -1;
    let parsed: Record<string, unknown> | null = null;
    let retryAfter: string | null = null;
    try {
      const response = await fetch(`${app.url}${path}`, {
        ...init,
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(SILENCE_MS),
      });
      status = response.status;
      retryAfter = response.headers.get("retry-after");
      const text = await response.text();
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        parsed = { text: text.slice(0, 300), location: response.headers.get("location") };
      }
    } catch {
      status = -1;
    }
    const record: Call = {
      kind,
      status,
      body: parsed,
      retryAfter,
      ms: Date.now() - started,
      at: started,
      ...tag,
      startedIn,
      endedIn: state.phase,
    };
    open.delete(sent);
    calls.push(record);
    return record;
  }
  return { calls, call, open };
}

type BidAttempt = {
  lotId: string;
  userId: string;
  amountCents: number;
  call: Call;
};

/**
 * Bidders bid on random lots with amounts unique per (lot, bidder) — the last two digits are the
 * bidder's number — so each bid row can be traced to the request that made it.
 */
function startBidders(
  bidders: Person[],
  lots: string[],
  rec: ReturnType<typeof recorder>,
  running: { on: boolean },
) {
  const known = new Map(lots.map((id) => [id, 0]));
  const lastMine = new Map<string, number>();
  const attempts: BidAttempt[] = [];
  let seed = 11;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const loops = bidders.map(async (bidder, index) => {
    let pause = index * 20; // staggered at first
    while (running.on) {
      // A fixed wait on purpose: the load's own rhythm. Each bidder pauses before each bid, to
      // stay under the bid rate limit (60 a minute per bidder) for the whole test.
      await sleep(pause);
      pause = 180 + random(60);
      const lotId = lots[random(lots.length)];
      const key = `${lotId}|${bidder.id}`;
      let amount = Math.ceil((known.get(lotId)! + 5000) / 100) * 100 + random(6) * 100 + index;
      if (amount <= (lastMine.get(key) ?? 0)) amount = lastMine.get(key)! + 100;
      lastMine.set(key, amount);
      const proxy = random(10) < 3;
      const call = await rec.call(
        "bid",
        "/api/bids",
        {
          method: "POST",
          headers: { Cookie: bidder.cookie },
          json: {
            vehicleId: lotId,
            amount: dollars(amount),
            isProxyBid: proxy,
            maxAmount: proxy ? dollars(amount + (1 + random(20)) * 100) : undefined,
          },
        },
        { user: bidder.id, lot: lotId },
      );
      attempts.push({ lotId, userId: bidder.id, amountCents: amount, call });
      const bid = call.body?.bid as { currentBid?: string } | undefined;
      if (call.status === 201 && bid?.currentBid) {
        known.set(lotId, Math.max(known.get(lotId)!, cents(bid.currentBid)));
      }
      const minimum = /Minimum bid is \$([\d,]+\.\d{2})/.exec(String(call.body?.message ?? ""));
      if (call.status === 400 && minimum) {
        const price = cents(minimum[1].replace(/,/g, "")) - 5000;
        known.set(lotId, Math.max(known.get(lotId)!, price));
      }
    }
  });
  return { attempts, done: Promise.all(loops) };
}

type DepositRun = { userId: string; amount: string; orderId: string | null; confirmed: boolean };

/**
 * Depositors pay through the TEST MODE gateway over and over: create the order, approve it, and
 * confirm it, each step retried until it answers (a 503 during the outage just means "again").
 */
function startDepositors(
  depositors: Person[],
  rec: ReturnType<typeof recorder>,
  running: { on: boolean },
  finishBy: { at: number },
) {
  const runs: DepositRun[] = [];
  const loops = depositors.map(async (person, index) => {
    let n = 0;
    while (running.on) {
      n += 1;
      const run: DepositRun = {
        userId: person.id,
        amount: `${400 + index * 100 + n}.00`,
        orderId: null,
        confirmed: false,
      };
      runs.push(run);
      const again = () => running.on || Date.now() < finishBy.at;
      /** Tries `step` every `every` ms until it succeeds or the depositors are told to stop. */
      const retried = (what: string, every: number, step: () => Promise<boolean>) =>
        waitFor(async () => !again() || (await step()), { what, every, timeout: 120_000 });
      await retried("an order", 400, async () => {
        const created = await rec.call(
          "order",
          "/paypal/order",
          {
            method: "POST",
            headers: { Cookie: person.cookie },
            json: { amount: run.amount, currency: "USD", intent: "CAPTURE" },
          },
          { user: person.id },
        );
        if (created.status === 201) run.orderId = String(created.body!.id);
        return run.orderId !== null;
      });
      let approved = false;
      if (run.orderId)
        await retried("an approval", 300, async () => {
          const answer = await rec.call("approve", "/payments/test-checkout", {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ token: run.orderId!, intent: "approve" }),
          });
          // 409: no longer open, i.e. captured by an earlier confirmation that lost its answer
          approved = answer.status === 302 || answer.status === 409;
          return approved;
        });
      if (approved)
        await retried("a confirmation", 400, async () => {
          const answer = await rec.call(
            "confirm",
            "/api/confirm-deposit",
            {
              method: "POST",
              headers: { Cookie: person.cookie },
              json: { orderID: run.orderId, amount: run.amount },
            },
            { user: person.id },
          );
          run.confirmed = answer.status === 200;
          return run.confirmed;
        });
      // A fixed wait on purpose: the load's own rhythm, a deposit every few seconds per person.
      await sleep(2_000);
    }
  });
  return { runs, done: Promise.all(loops) };
}

const ALLOWED: Record<Call["kind"], number[]> = {
  bid: [201, 400, 503],
  order: [201, 503],
  approve: [302, 409, 503],
  confirm: [200, 503],
};

/** Waits for `check` (at most `timeout` ms); the test's own expectations say what was missing. */
function waitUntil(check: () => boolean, timeout: number) {
  return waitFor(check, { what: "the load's progress", timeout, every: 50 }).catch(() => undefined);
}

describe.each([
  ["a clean shutdown (pg_ctl stop -m fast)", "fast"],
  ["a crash (immediate shutdown, recovery from the WAL)", "crash"],
] as const)("PostgreSQL goes away under load: %s", (_name, mode) => {
  it("answers 503 while down, recovers without a restart, and loses or half-writes nothing", async () => {
    const setup = await connect();
    const bidders = await createBidders(setup, SECRET, BIDDERS, OPENING, `bidder-${mode}`);
    const depositors = bidders.slice(0, DEPOSITORS); // they bid too: both lock the user row
    const lots = await createLots(setup, 4);
    await setup.end();
    db = null;

    const state = { phase: "up" as Phase };
    const rec = recorder(state);
    const running = { on: true };
    const finishBy = { at: Number.POSITIVE_INFINITY };
    const bidding = startBidders(bidders, lots, rec, running);
    const paying = startDepositors(depositors, rec, running, finishBy);
    const accepted = () => bidding.attempts.filter((a) => a.call.status === 201).length;

    await waitUntil(() => accepted() >= 30, 10_000);
    expect(accepted()).toBeGreaterThanOrEqual(30);
    const pid = app.proc.pid;

    // A busy lot and a busy bidder: their requests get past sign-in and then wait inside their
    // transactions for row locks, so the outage cuts them off mid-transaction.
    const holder = await connect();
    holder.on("error", () => undefined);
    await holder.query("begin");
    await holder.query("select id from lots where id = $1 for update", [lots[0]]);
    await holder.query("select id from users where id = $1 for update", [depositors[0].id]);
    const heldSince = Date.now();
    // requests pile up behind the held rows: wait until three of theirs are sent and unanswered
    const behindHeldRows = (c: Pick<Call, "kind" | "at" | "user" | "lot">) =>
      c.at >= heldSince &&
      c.kind !== "approve" &&
      (c.user === depositors[0].id || c.lot === lots[0]);
    await waitFor(() => [...rec.open].filter(behindHeldRows).length >= 3, {
      what: "three requests waiting for the held rows",
      timeout: 15_000,
      every: 50,
    });
    db = null;

    // Down, in the middle of it all.
    state.phase = "stopping";
    const stopBegan = Date.now();
    if (mode === "fast") await cluster.stop();
    else await crashCluster(cluster.dataDir);
    state.phase = "down";
    const downSince = rec.calls.length;
    // calls meet the outage: more than ten of at least two kinds answered while it is down
    const answeredWhileDown = () => rec.calls.slice(downSince).filter((c) => c.endedIn === "down");
    await waitFor(
      () => {
        const calls = answeredWhileDown();
        return calls.length > 10 && new Set(calls.map((c) => c.kind)).size >= 2;
      },
      { what: "calls answered during the outage", timeout: 20_000, every: 50 },
    );
    // the same call by hand: a clear JSON 503 with Retry-After
    const probe = await rec.call("bid", "/api/bids", {
      method: "POST",
      headers: { Cookie: bidders[0].cookie },
      json: { vehicleId: lots[0], amount: "999999.00", isProxyBid: false },
    });
    expect(probe.status).toBe(503);
    expect(String(probe.body?.message)).toContain("briefly unavailable");
    expect(probe.retryAfter).toBe("10");
    const whileDown = answeredWhileDown();

    cluster = await startLocalCluster({
      dataDir: cluster.dataDir,
      port: cluster.port,
      tuning: TUNING,
    });
    state.phase = "back";
    const acceptedBefore = accepted();
    // Back up: bids and deposits both go on until each has shown it recovered (on a loaded
    // machine 30 bids can be taken before a depositor's next order, approval and confirmation).
    const confirmedAgain = () =>
      rec.calls.some((c) => c.kind === "confirm" && c.status === 200 && c.startedIn === "back");
    await waitUntil(() => accepted() >= acceptedBefore + 30 && confirmedAgain(), 30_000);
    running.on = false;
    finishBy.at = Date.now() + 10_000;
    await Promise.all([bidding.done, paying.done]);

    // While down: every call answered, quickly, with a 503 (bids, orders, approvals, confirms).
    expect(whileDown.length).toBeGreaterThan(10);
    expect(new Set(whileDown.map((c) => c.kind)).size).toBeGreaterThanOrEqual(2);
    expect(whileDown.filter((c) => c.startedIn === "down" && c.status !== 503)).toEqual([]);
    // Calls that got past sign-in and waited inside their transactions for the held locks were
    // cut off by the outage, and answered 503 too.
    const blocked = (c: Call) => behindHeldRows(c) && c.at < stopBegan;
    const waited = rec.calls.filter((c) => blocked(c) && c.endedIn !== "up");
    expect(waited.filter((c) => c.status === 503).length).toBeGreaterThanOrEqual(3);
    // Throughout: only the answers a client can act on; never a 500, never silence (-1).
    const unexpected = rec.calls.filter((c) => !ALLOWED[c.kind].includes(c.status));
    expect(unexpected.map((c) => [c.kind, c.status, c.startedIn, c.body])).toEqual([]);
    // Recovered: the same process took bids and deposits after PostgreSQL came back.
    expect(app.proc.pid).toBe(pid);
    expect(app.proc.exitCode).toBeNull();
    expect(accepted()).toBeGreaterThanOrEqual(acceptedBefore + 30);
    expect(confirmedAgain()).toBe(true);

    const check = await connect();
    // Every accepted bid is in the table as it was answered.
    const rows = await bidRows(check, lots);
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    for (const attempt of bidding.attempts.filter((a) => a.call.status === 201)) {
      const bid = attempt.call.body!.bid as { id: string };
      const row = byId.get(String(bid.id));
      expect(row, `accepted bid ${bid.id}`).toBeDefined();
      expect([row!.lot_id, row!.user_id, cents(row!.amount), row!.automatic]).toEqual([
        attempt.lotId,
        attempt.userId,
        attempt.amountCents,
        false,
      ]);
    }
    // Every typed bid row was made by a request that was accepted or cut off by the outage:
    // a bid refused by a rule (400) never left a row. A 503'd bid may stand (committed, then
    // the answer was lost): that is the client's "retry and see", not a half-write.
    const byRequest = new Map(
      bidding.attempts.map((a) => [`${a.lotId}|${a.userId}|${a.amountCents}`, a]),
    );
    let committedButUnanswered = 0;
    for (const row of rows.filter((r) => !r.automatic)) {
      const attempt = byRequest.get(`${row.lot_id}|${row.user_id}|${cents(row.amount)}`);
      expect(attempt, `bid row ${row.id} has a request`).toBeDefined();
      expect([201, 503, -1]).toContain(attempt!.call.status);
      if (attempt!.call.status !== 201) committedButUnanswered += 1;
    }
    // Bids that were still waiting for the held locks never got to commit: no row.
    const neverLocked = bidding.attempts.filter((a) => blocked(a.call) && a.call.status === 503);
    expect(neverLocked.length).toBeGreaterThanOrEqual(1);
    for (const attempt of neverLocked) {
      expect(byRequest.get(`${attempt.lotId}|${attempt.userId}|${attempt.amountCents}`)).toBe(
        attempt,
      );
      expect(
        rows.some(
          (r) =>
            r.lot_id === attempt.lotId &&
            r.user_id === attempt.userId &&
            cents(r.amount) === attempt.amountCents,
        ),
      ).toBe(false);
    }
    // Each lot's counters agree with its rows and with the proxy rules.
    for (const lot of lots) await checkLotAgreesWithBids(check, lot);
    const userIds = bidders.map((b) => b.id);
    await checkHoldsWithinDeposits(check, userIds);

    // Money: every deposit finished once PostgreSQL was back, each credited exactly once, and the
    // ledger agrees with every balance.
    const runs = paying.runs.filter((r) => r.orderId);
    expect(runs.length).toBeGreaterThanOrEqual(DEPOSITORS);
    expect(runs.filter((r) => !r.confirmed)).toEqual([]);
    const orders = await checkLedger(check, userIds);
    const captured = orders.filter((o) => o.status === "captured");
    expect(captured.length).toBe(runs.length);
    for (const person of depositors) {
      const paid = runs
        .filter((r) => r.userId === person.id)
        .reduce((sum, r) => sum + cents(r.amount), 0);
      const {
        rows: [user],
      } = await check.query<{ deposit: string }>("select deposit::text from users where id = $1", [
        person.id,
      ]);
      expect(cents(user.deposit)).toBe(cents(OPENING) + paid);
    }
    // the provider's side agrees: no payment taken that was not credited
    const { rows: uncredited } = await check.query(
      `select t.id from test_gateway_orders t
        where t.status = 'COMPLETED' and not exists (select 1 from payment_orders o
          where o.provider_order_id = t.id and o.status = 'captured')`,
    );
    expect(uncredited).toEqual([]);
    await check.end();
    db = null;
    console.info(
      `[faults-db ${mode}] calls ${rec.calls.length}, while down ${whileDown.length}, ` +
        `cut off mid-transaction ${waited.length}, bids accepted ${accepted()}, bid rows ${rows.length}, committed but answered 503: ` +
        `${committedButUnanswered}, deposits ${runs.length}, slowest ${Math.max(...rec.calls.map((c) => c.ms))} ms`,
    );
  }, 60_000);
});
