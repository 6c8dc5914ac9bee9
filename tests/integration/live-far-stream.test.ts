// A far region's stream (docs/decisions/3721): the app reaches its database through a proxy that
// adds a round trip's delay, as an Amsterdam machine reaches the primary in Dallas. Opening a lot
// stream costs about one round trip (the lease, the lot's start and its first state overlap or
// share a statement), and a stream opened while bids go on gets every bid after its first state,
// none lost, none twice.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { delayedTcp } from "../support/regions";

/** The delay the proxy adds to each round trip (half each way). */
const ROUND_TRIP_MS = 100;

// The app's pool binds to DATABASE_URL when its db module is first loaded: point it at the proxy
// before anything of the app is imported.
const direct = new URL(process.env.DATABASE_URL!);
// 0 while the test sets up; each test sets the round trip it measures
const proxy = await delayedTcp({ host: direct.hostname, port: Number(direct.port || 5432) }, 0);
const far = new URL(direct);
far.hostname = "127.0.0.1";
far.port = String(proxy.port);
process.env.DATABASE_URL = far.toString();

const { QueryTypes } = await import("sequelize");
const { sequelize } = await import("~/models/db.server");
const { placeBid } = await import("../support/bids");
const { LiveHub, stopLiveHub } = await import("~/platform/live/hub.server");
const { openEventStream } = await import("~/platform/live/stream.server");
const { lotStreamSpec } = await import("~/services/auctions/live.server");
const { createTestUser, requestAs } = await import("../support/auth");
const { createTestLot } = await import("../support/lots");
const { SseReader } = await import("../support/sse");

type User = Awaited<ReturnType<typeof createTestUser>>;
const bidder = () => createTestUser({ verified: true, deposit: "100000.00" });
const open: AbortController[] = [];

/** A lot stream as the lot page opens it (its lot known to exist), and how long the open took. */
async function openLot(user: User, lotId: string) {
  const controller = new AbortController();
  open.push(controller);
  const request = await requestAs(user, `/live/lots/${lotId}`, {
    headers: { Accept: "text/event-stream" },
    signal: controller.signal,
  });
  const started = performance.now();
  const response = await openEventStream(lotStreamSpec(request, user.id, lotId));
  const ms = performance.now() - started;
  expect(response.status).toBe(200);
  return { ms, controller, reader: new SseReader(response.body!) };
}

/** A few connections of the app's pool opened and idle, as on a busy machine. */
async function warmPool() {
  await Promise.all(Array.from({ length: 4 }, () => sequelize.query("SELECT pg_sleep(0.01)")));
}

async function lotEventIds(lotId: string) {
  const rows = await sequelize.query<{ id: string }>(
    "SELECT id::text AS id FROM lot_events WHERE lot_id = :lotId ORDER BY lot_events.id",
    { replacements: { lotId }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => row.id);
}

beforeAll(async () => {
  // the hub's LISTEN connection is up before the timed opens (once per process)
  const lot = await createTestLot();
  const first = await openLot(await bidder(), lot.id);
  first.controller.abort();
});
afterEach(() => {
  for (const controller of open.splice(0)) controller.abort();
  proxy.delayMs = 0;
  proxy.watch = null;
});
afterAll(async () => {
  await stopLiveHub();
  await sequelize.close().catch(() => undefined);
  globalThis.__bidyardSequelize = undefined;
  await proxy.close();
});

describe("a lot stream opened far from the primary", () => {
  it("opens in about one round trip (under two), its lot new to this process", async () => {
    const alice = await bidder();
    const lots = [];
    for (let i = 0; i < 5; i += 1) lots.push(await createTestLot());
    await placeBid((await bidder()).id, { lotId: lots[0].id, amount: "100", isProxy: false });
    const times: number[] = [];
    proxy.delayMs = ROUND_TRIP_MS;
    for (const lot of lots) {
      await warmPool();
      const stream = await openLot(alice, lot.id);
      times.push(stream.ms);
      await stream.reader.until((r) => r.data("snapshot").length === 1, "the lot's state");
      stream.controller.abort();
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.info(
      `far lot stream open (round trip ${ROUND_TRIP_MS} ms): ${times.map((t) => t.toFixed(0)).join(", ")} ms; median ${median.toFixed(0)} ms`,
    );
    expect(median).toBeLessThan(2 * ROUND_TRIP_MS);
  });

  it("a stream opened between two bids gets the second, once, after the first's state", async () => {
    const lot = await createTestLot();
    const [alice, bob] = [await bidder(), await bidder()];
    proxy.delayMs = ROUND_TRIP_MS;
    await placeBid(alice.id, { lotId: lot.id, amount: "100", isProxy: false });
    const stream = await openLot(bob, lot.id);
    await placeBid(bob.id, { lotId: lot.id, amount: "200", isProxy: false });
    await stream.reader.until((r) => r.data("lot").length >= 1, "the second bid");
    const [first, second] = await lotEventIds(lot.id);
    expect(stream.reader.events.map((e) => [e.event, e.id])).toEqual([
      ["snapshot", first],
      ["lot", second],
    ]);
  });

  it("two streams of a lot new here, opened at once, each get the next bid once", async () => {
    // the second finds the lot being started for the first: it waits for that start, then reads
    const lot = await createTestLot();
    const [alice, bob] = [await bidder(), await bidder()];
    await placeBid(alice.id, { lotId: lot.id, amount: "100", isProxy: false });
    await warmPool();
    proxy.delayMs = ROUND_TRIP_MS;
    const [a, b] = await Promise.all([openLot(alice, lot.id), openLot(bob, lot.id)]);
    await placeBid(bob.id, { lotId: lot.id, amount: "200", isProxy: false });
    const [first, second] = await lotEventIds(lot.id);
    for (const stream of [a, b]) {
      await stream.reader.until((r) => r.data("lot").length >= 1, "the second bid");
      expect(stream.reader.events.map((e) => [e.event, e.id])).toEqual([
        ["snapshot", first],
        ["lot", second],
      ]);
    }
  });

  it("streams opened while bids go on get every bid after their state, none lost, none twice", async () => {
    const lot = await createTestLot();
    const [alice, bob] = [await bidder(), await bidder()];
    proxy.delayMs = ROUND_TRIP_MS;
    let bidding = true;
    let amount = 100;
    // two people outbidding each other as fast as the far database lets them
    const bids: Promise<unknown> = (async () => {
      for (let turn = 0; bidding; turn += 1) {
        amount += 50;
        await placeBid((turn % 2 ? bob : alice).id, {
          lotId: lot.id,
          amount: String(amount),
          isProxy: false,
        });
      }
    })().catch((error: unknown) => error);
    const streams = [];
    try {
      // each opens as the lot's only viewer here (the last one closed), so each starts the lot
      for (let i = 0; i < 6; i += 1) {
        const viewer = await bidder();
        await warmPool();
        const stream = await openLot(viewer, lot.id);
        streams.push(stream);
        await stream.reader.until((r) => r.events.length >= 3, "the state and two bids");
        stream.controller.abort();
      }
      // and some while others are open
      for (let i = 0; i < 3; i += 1) streams.push(await openLot(await bidder(), lot.id));
      await new Promise((resolve) => setTimeout(resolve, 3 * ROUND_TRIP_MS));
    } finally {
      bidding = false;
    }
    expect(await bids).toBeUndefined();
    const ids = await lotEventIds(lot.id);
    expect(ids.length).toBeGreaterThan(6);
    const open = streams.slice(6);
    for (const stream of open) {
      await stream.reader.until(
        (r) => r.events.at(-1)?.id === ids.at(-1),
        "every bid up to the last",
      );
    }
    for (const stream of streams) {
      const [state, ...events] = stream.reader.events;
      expect(state.event).toBe("snapshot");
      const after = events.map((e) => e.id);
      // the closed ones saw the bids up to their close: a prefix of what followed their state
      const expected = ids.filter((id) => BigInt(id) > BigInt(state.id));
      if (open.includes(stream)) expect(after).toEqual(expected);
      else expect(after).toEqual(expected.slice(0, after.length));
    }
  });

  it("an event committed after the stream's first read, before the read is back, reaches it once", async () => {
    // The hardest case for a gap: notifications come at once (this process's hub listens next
    // to the database) while the stream's queries are far. The event commits a quarter round
    // trip after the stream's first read reached the database (and took its snapshot), so it is
    // notified before the read is back.
    await stopLiveHub();
    globalThis.__bidyardLiveHub = new LiveHub(direct.toString());
    const slow = new pg.Client({ connectionString: direct.toString() });
    await slow.connect();
    try {
      const lot = await createTestLot();
      const [alice, bob] = [await bidder(), await bidder()];
      await placeBid(alice.id, { lotId: lot.id, amount: "100", isProxy: false });
      await globalThis.__bidyardLiveHub.start();
      const request = await requestAs(bob, `/live/lots/${lot.id}`, {
        headers: { Accept: "text/event-stream" },
        signal: (() => {
          const controller = new AbortController();
          open.push(controller);
          return controller.signal;
        })(),
      });
      await slow.query("BEGIN");
      // the lot's end moves (as a soft-close extension's does): one event, notified at commit
      await slow.query("UPDATE lots SET ends_at = ends_at + interval '1 hour' WHERE id = $1", [
        lot.id,
      ]);
      const roundTrip = 400;
      await warmPool();
      proxy.delayMs = roundTrip;
      const readReached = new Promise<void>((reached) => {
        // the lot's state, as the stream's first read asks for it
        proxy.watch = { text: "lots.current_bid::text AS price", reached };
      });
      const opening = openEventStream(lotStreamSpec(request, bob.id, lot.id));
      await readReached;
      proxy.watch = null;
      await new Promise((resolve) => setTimeout(resolve, 0.25 * roundTrip));
      await slow.query("COMMIT");
      const response = await opening;
      expect(response.status).toBe(200);
      proxy.delayMs = 0;
      const reader = new SseReader(response.body!);
      const [first, second] = await lotEventIds(lot.id);
      await reader.until((r) => r.events.length >= 2, "the state and the event");
      // the read saw the first bid only: the event came after it, through the hub
      expect(reader.events.map((e) => [e.event, e.id])).toEqual([
        ["snapshot", first],
        ["lot", second],
      ]);
      const [state] = reader.data<{ endsAt: string }>("snapshot");
      const [moved] = reader.data<{ endsAt: string }>("lot");
      expect(Date.parse(moved.endsAt) - Date.parse(state.endsAt)).toBe(3_600_000);
      await placeBid(bob.id, { lotId: lot.id, amount: "300", isProxy: false });
      await reader.until((r) => r.events.length >= 3, "the next bid");
      expect(reader.events.map((e) => e.event)).toEqual(["snapshot", "lot", "lot"]);
    } finally {
      await slow.query("ROLLBACK").catch(() => undefined);
      await slow.end();
      await stopLiveHub();
    }
  });
});
