// The live hub's health (docs/decisions/1801, "Revised"): what it does while its LISTEN connection
// is being restored, after it is back, and when pg-listen gives up. The connection's events are
// played on the hub's own pg-listen subscriber ("reconnect", "connected", "error"), and a lost
// notification is one the hub's listener did not get, so each case is exact and quick; the real
// cut and restart are in live-streams.test.ts and live-two-processes.test.ts.
import type { Subscriber } from "pg-listen";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { placeBid } from "../support/bids";
import type { LiveLot } from "~/services/auctions/live";
import {
  hubSettings,
  liveHub,
  LOT_EVENTS_CHANNEL,
  stopLiveHub,
  type LiveHub,
  type LotEvent,
} from "~/platform/live/hub.server";
import { openStreams } from "~/platform/live/stream.server";
import { loader as lotStream } from "~/routes/live.lots.$lotId";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { SseReader } from "../support/sse";
import { waitFor } from "../support/wait";

const bidder = () => createTestUser({ verified: true, deposit: "5000.00" });
const open: AbortController[] = [];
const savedSettings = { ...hubSettings };

async function openLot(user: User, lotId: string) {
  const controller = new AbortController();
  open.push(controller);
  const request = await requestAs(user, `/live/lots/${lotId}`, {
    headers: { Accept: "text/event-stream" },
    signal: controller.signal,
  });
  const response = (await lotStream({ request, params: { lotId }, context: {} })) as Response;
  return { response, reader: response.status === 200 ? new SseReader(response.body!) : null };
}

/** Opens a lot stream and waits for its first state, so the hub follows the lot. */
async function follow(user: User, lotId: string) {
  const stream = await openLot(user, lotId);
  expect(stream.response.status).toBe(200);
  await stream.reader!.until((r) => r.data("snapshot").length === 1, "the snapshot");
  return stream.reader!;
}

const lots = (reader: SseReader) => reader.data<LiveLot>("lot");

/** The hub's pg-listen subscriber (private: these tests play its events). */
function subscriberOf(hub: LiveHub) {
  return (hub as unknown as { subscriber: Subscriber | null }).subscriber;
}

async function liveSubscriber() {
  const hub = liveHub();
  await hub.start();
  return { hub, subscriber: subscriberOf(hub)! };
}

/**
 * Takes the hub's notification listener away, as a lost connection would: notifications sent
 * meanwhile never reach it. Returns a function that puts it back.
 */
function deafen(subscriber: Subscriber) {
  const listeners = subscriber.notifications.listeners(LOT_EVENTS_CHANNEL) as Array<
    (event: LotEvent) => void
  >;
  subscriber.notifications.removeAllListeners(LOT_EVENTS_CHANNEL);
  return () => {
    for (const listener of listeners) subscriber.notifications.on(LOT_EVENTS_CHANNEL, listener);
  };
}

/** Resolves once the database has notified `count` events of `lotId` (seen by this test). */
function notified(subscriber: Subscriber, lotId: string, count: number) {
  return new Promise<void>((resolve) => {
    const seen = (event: LotEvent) => {
      if (event.lot !== String(lotId) || event.count < count) return;
      subscriber.notifications.removeListener(LOT_EVENTS_CHANNEL, seen);
      resolve();
    };
    subscriber.notifications.on(LOT_EVENTS_CHANNEL, seen);
  });
}

function until(test: () => boolean, what: string, timeout = 15_000) {
  return waitFor(test, { what, timeout, every: 20 });
}

async function bid(user: User, lotId: string, amount: number) {
  await placeBid(user.id, { lotId, amount: String(amount), isProxy: false });
}

afterEach(async () => {
  for (const controller of open.splice(0)) controller.abort();
  Object.assign(hubSettings, savedSettings);
  vi.restoreAllMocks();
  // each test leaves the hub up for the next
  const hub: LiveHub = liveHub();
  if (!hub.connected) {
    subscriberOf(hub)?.events.emit("connected");
    await until(() => hub.connected, "the hub back up").catch(() => undefined);
  }
});
afterAll(() => stopLiveHub());

describe("catching up after the connection comes back", () => {
  it("a notification that arrives during the catch-up waits for it: nothing older is lost", async () => {
    const lot = await createTestLot();
    const alice = await bidder();
    // bids take turns: a leader's own bid raises only their maximum, with no event (record 2702)
    const bob = await bidder();
    const stream = await follow(alice, lot.id);
    const { hub, subscriber } = await liveSubscriber();

    subscriber.events.emit("reconnect", 1);
    expect(hub.connected).toBe(false);
    const hear = deafen(subscriber);
    const missed = notified(subscriber, lot.id, 1);
    await bid(alice, lot.id, 100);
    await missed;
    hear();
    // the connection is back and listening: this one is notified before the catch-up has run
    const early = notified(subscriber, lot.id, 2);
    await bid(bob, lot.id, 200);
    await early;
    expect(lots(stream)).toHaveLength(0);

    subscriber.events.emit("connected");
    await stream.until((r) => lots(r).length === 2, "the missed bid, then the newer one");
    expect(lots(stream).map((e) => e.currentBid)).toEqual(["100.00", "200.00"]);
    await until(() => hub.connected, "the hub live again");
    await bid(alice, lot.id, 300);
    await stream.until((r) => lots(r).length === 3, "the next bid");
    expect(lots(stream).map((e) => e.currentBid)).toEqual(["100.00", "200.00", "300.00"]);
  });

  it("reads everything missed, page by page", async () => {
    hubSettings.catchUpPageSize = 2;
    const [one, two] = [await createTestLot(), await createTestLot()];
    const alice = await bidder();
    const bob = await bidder();
    const onOne = await follow(alice, one.id);
    const onTwo = await follow(alice, two.id);
    const { subscriber } = await liveSubscriber();

    subscriber.events.emit("reconnect", 1);
    const hear = deafen(subscriber);
    const missed = [notified(subscriber, one.id, 3), notified(subscriber, two.id, 2)];
    for (const [who, lotId, amount] of [
      [alice, one.id, 100],
      [alice, two.id, 100],
      [bob, one.id, 200],
      [bob, two.id, 200],
      [alice, one.id, 300],
    ] as const) {
      await bid(who, lotId, amount);
    }
    await Promise.all(missed);
    hear();
    subscriber.events.emit("connected");
    await onOne.until((r) => lots(r).length === 3, "lot one's three bids");
    await onTwo.until((r) => lots(r).length === 2, "lot two's two bids");
    expect(lots(onOne).map((e) => e.currentBid)).toEqual(["100.00", "200.00", "300.00"]);
    expect(lots(onTwo).map((e) => e.currentBid)).toEqual(["100.00", "200.00"]);
  });

  it("ends the open streams when too much was missed (they resume from Last-Event-ID)", async () => {
    hubSettings.catchUpPageSize = 2;
    hubSettings.catchUpLimit = 2;
    const lot = await createTestLot();
    const alice = await bidder();
    const bob = await bidder();
    const stream = await follow(alice, lot.id);
    const { hub, subscriber } = await liveSubscriber();

    subscriber.events.emit("reconnect", 1);
    const hear = deafen(subscriber);
    const missed = notified(subscriber, lot.id, 3);
    for (const [who, amount] of [
      [alice, 100],
      [bob, 200],
      [alice, 300],
    ] as const)
      await bid(who, lot.id, amount);
    await missed;
    hear();
    subscriber.events.emit("connected");
    await stream.until((r) => r.closed, "the stream ended");
    await until(() => hub.connected, "the hub live again");
    await until(() => openStreams(alice.id) === 0, "the stream's place given back");
  });

  it("ends the open streams when the catch-up fails, instead of leaving them silent", async () => {
    const lot = await createTestLot();
    const alice = await bidder();
    const stream = await follow(alice, lot.id);
    const { hub, subscriber } = await liveSubscriber();

    subscriber.events.emit("reconnect", 1);
    vi.spyOn(sequelize, "query").mockRejectedValueOnce(new Error("the database went away"));
    subscriber.events.emit("connected");
    await stream.until((r) => r.closed, "the stream ended");
    await until(() => hub.connected, "the hub live again");
    // a new stream works
    vi.restoreAllMocks();
    const next = await follow(alice, lot.id);
    await bid(alice, lot.id, 100);
    await next.until((r) => lots(r).length === 1, "a bid on the new stream");
  });
});

describe("while the hub is down", () => {
  it("refuses new streams with 503 (the page keeps polling) and takes them again once back", async () => {
    const lot = await createTestLot();
    const alice = await bidder();
    await follow(alice, lot.id);
    const { hub, subscriber } = await liveSubscriber();
    const before = openStreams(alice.id);

    subscriber.events.emit("reconnect", 1);
    const refused = await openLot(alice, lot.id);
    expect(refused.response.status).toBe(503);
    expect(refused.response.headers.get("retry-after")).toBe("30");
    expect(openStreams(alice.id)).toBe(before);

    subscriber.events.emit("connected");
    await until(() => hub.connected, "the hub live again");
    expect((await openLot(alice, lot.id)).response.status).toBe(200);
  });

  it("ends the open streams once it has been down longer than the grace period", async () => {
    hubSettings.downGraceMs = 200;
    const lot = await createTestLot();
    const alice = await bidder();
    const stream = await follow(alice, lot.id);
    const { subscriber } = await liveSubscriber();

    subscriber.events.emit("reconnect", 1);
    await stream.until((r) => r.closed, "the stream ended");
    await until(() => openStreams(alice.id) === 0, "the stream's place given back");
  });

  it("keeps the open streams through a short outage", async () => {
    hubSettings.downGraceMs = 60_000;
    const lot = await createTestLot();
    const alice = await bidder();
    const stream = await follow(alice, lot.id);
    const { hub, subscriber } = await liveSubscriber();
    subscriber.events.emit("reconnect", 1);
    subscriber.events.emit("connected");
    await until(() => hub.connected, "the hub live again");
    await bid(alice, lot.id, 100);
    await stream.until((r) => lots(r).length === 1, "the bid");
    expect(stream.closed).toBe(false);
  });
});

describe("when pg-listen gives up", () => {
  it("ends the open streams and starts a fresh connection after a backoff", async () => {
    hubSettings.retryMinMs = 200;
    const lot = await createTestLot();
    const alice = await bidder();
    const stream = await follow(alice, lot.id);
    const { hub, subscriber } = await liveSubscriber();

    // what pg-listen emits when it cannot LISTEN again after reconnecting (it stops for good)
    subscriber.events.emit(
      "error",
      new Error(
        "Re-initializing the PostgreSQL notification client after connection loss failed: boom",
      ),
    );
    expect(hub.connected).toBe(false);
    await expect(hub.start()).rejects.toThrow(/down/);
    await stream.until((r) => r.closed, "the stream ended");

    await until(() => hub.connected, "a fresh connection");
    const fresh = subscriberOf(hub);
    expect(fresh).not.toBe(subscriber);
    const next = await follow(alice, lot.id);
    await bid(alice, lot.id, 100);
    await next.until((r) => lots(r).length === 1, "a bid through the fresh connection");
  });

  it("a payload it could not parse is only logged", async () => {
    const { hub, subscriber } = await liveSubscriber();
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    subscriber.events.emit(
      "error",
      new Error("Error parsing PostgreSQL notification payload: Unexpected token"),
    );
    expect(hub.connected).toBe(true);
    expect(logged).toHaveBeenCalled();
  });
});
