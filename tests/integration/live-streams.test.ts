// The live streams (docs/decisions/1801): a bid, an extension or a close writes a lot event and
// notifies in its own transaction; each process's one LISTEN connection fans it out; a stream
// starts from the lot's state, resumes after Last-Event-ID, beats, and is capped per person.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { placeBid } from "../support/bids";
import { closeEndedLots } from "~/services/auctions/closer.server";
import type { LiveLot } from "~/services/auctions/live";
import { resetClock } from "~/platform/clock.server";
import { liveHub, stopLiveHub } from "~/platform/live/hub.server";
import { pruneLotEvents } from "~/platform/live/prune.server";
import { leaseSettings, renewStreamLeases } from "~/platform/live/leases.server";
import {
  MAX_STREAMS_PER_USER,
  openEventStream,
  openStreams,
  streamSettings,
} from "~/platform/live/stream.server";
import { loader as lotStream } from "~/routes/live.lots.$lotId";
import { loader as listStream } from "~/routes/live.auctions";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { SseReader } from "../support/sse";
import { waitFor } from "../support/wait";

const bidder = () => createTestUser({ verified: true, deposit: "5000.00" });
const open: AbortController[] = [];

async function openLot(user: User, lotId: string, lastEventId?: string) {
  const controller = new AbortController();
  open.push(controller);
  const headers: Record<string, string> = { Accept: "text/event-stream" };
  if (lastEventId) headers["Last-Event-ID"] = lastEventId;
  const request = await requestAs(user, `/live/lots/${lotId}`, {
    headers,
    signal: controller.signal,
  });
  const response = (await lotStream({ request, params: { lotId }, context: {} })) as Response;
  return { response, controller, reader: new SseReader(response.body!) };
}

async function openList(user: User, lots: string[]) {
  const controller = new AbortController();
  open.push(controller);
  const request = await requestAs(user, `/live/auctions?lots=${lots.join(",")}`, {
    headers: { Accept: "text/event-stream" },
    signal: controller.signal,
  });
  const response = (await listStream({ request, params: {}, context: {} })) as Response;
  return { response, controller, reader: response.body ? new SseReader(response.body) : null };
}

const lots = (reader: SseReader) => reader.data<LiveLot>("lot");

afterEach(() => {
  for (const controller of open.splice(0)) controller.abort();
  resetClock();
});
afterAll(() => stopLiveHub());

describe("a bid reaches every open stream of its lot", () => {
  it("sends price, count, masked leader and end; 'leading' and 'outbid' to those concerned", async () => {
    const lot = await createTestLot();
    const [alice, bob, carol] = [await bidder(), await bidder(), await bidder()];
    const a = await openLot(alice, lot.id);
    const c = await openLot(carol, lot.id);
    expect(a.response.status).toBe(200);
    expect(a.response.headers.get("content-type")).toContain("text/event-stream");
    expect(a.response.headers.get("cache-control")).toContain("no-transform");

    await placeBid(alice.id, { lotId: lot.id, amount: "100", isProxy: false });
    await a.reader.until((r) => lots(r).length === 1, "first bid");
    await c.reader.until((r) => lots(r).length === 1, "first bid (other viewer)");
    const [first] = lots(a.reader);
    expect(first).toMatchObject({ lotId: String(lot.id), currentBid: "100.00", bidCount: 1 });
    expect(first.status).toBe("active");
    expect(first.leader).toMatch(/^Bidder \d{4}$/);
    expect(first.you).toBe("leading");
    expect(lots(c.reader)[0].you).toBeNull();
    expect(JSON.stringify(lots(c.reader)[0])).not.toContain(alice.id);

    await placeBid(bob.id, { lotId: lot.id, amount: "200", isProxy: false });
    await a.reader.until((r) => lots(r).length === 2, "the outbid");
    expect(lots(a.reader)[1]).toMatchObject({ currentBid: "200.00", bidCount: 2, you: "outbid" });
    expect(lots(a.reader)[1].leader).not.toBe(first.leader);
    // the ids are the lot_events ids, in order
    const ids = a.reader.events.filter((e) => e.event === "lot").map((e) => BigInt(e.id));
    expect(ids[1] > ids[0]).toBe(true);
  });

  it("a soft-close extension moves endsAt; the closer's 'sold' is sent too", async () => {
    const endsAt = new Date(Date.now() + 60_000);
    const lot = await createTestLot({ endsAt });
    const alice = await bidder();
    const a = await openLot(alice, lot.id);
    await placeBid(alice.id, { lotId: lot.id, amount: "100", isProxy: false });
    await a.reader.until((r) => lots(r).length === 1, "the extension");
    expect(new Date(lots(a.reader)[0].endsAt).getTime()).toBeGreaterThan(endsAt.getTime());

    await sequelize.query("UPDATE lots SET ends_at = now() - interval '1 second' WHERE id = :id", {
      replacements: { id: lot.id },
    });
    await closeEndedLots();
    await a.reader.until((r) => lots(r).some((e) => e.status === "sold"), "the close");
    expect(lots(a.reader).at(-1)).toMatchObject({ status: "sold", you: "leading" });
  });

  it("a change rolled back sends nothing and leaves no event", async () => {
    const lot = await createTestLot();
    const alice = await bidder();
    const a = await openLot(alice, lot.id);
    await sequelize
      .transaction(async (transaction) => {
        await sequelize.query("UPDATE lots SET current_bid = 999 WHERE id = :id", {
          replacements: { id: lot.id },
          transaction,
        });
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    await placeBid(alice.id, { lotId: lot.id, amount: "100", isProxy: false });
    await a.reader.until((r) => lots(r).length >= 1, "the real bid");
    expect(lots(a.reader).map((e) => e.currentBid)).toEqual(["100.00"]);
    const [{ count }] = await sequelize.query<{ count: string }>(
      "SELECT count(*) FROM lot_events WHERE lot_id = :id",
      { replacements: { id: lot.id }, type: QueryTypes.SELECT },
    );
    expect(Number(count)).toBe(1);
  });
});

describe("nothing lost", () => {
  it("a fresh stream starts from the lot's state; a resumed one gets exactly what it missed", async () => {
    const lot = await createTestLot();
    const [alice, bob] = [await bidder(), await bidder()];
    await placeBid(alice.id, { lotId: lot.id, amount: "100", isProxy: false });

    const first = await openLot(bob, lot.id);
    await first.reader.until((r) => r.data("snapshot").length === 1, "the snapshot");
    expect(first.reader.data<LiveLot>("snapshot")[0]).toMatchObject({
      currentBid: "100.00",
      you: null,
    });
    const lastId = first.reader.events.at(-1)!.id;
    first.controller.abort();

    await placeBid(bob.id, { lotId: lot.id, amount: "200", isProxy: false });
    await placeBid(alice.id, { lotId: lot.id, amount: "300", isProxy: false });

    const resumed = await openLot(bob, lot.id, lastId);
    await resumed.reader.until((r) => lots(r).length === 2, "the two missed events");
    expect(lots(resumed.reader).map((e) => [e.currentBid, e.you])).toEqual([
      ["200.00", "leading"],
      ["300.00", "outbid"],
    ]);
    expect(resumed.reader.data("snapshot")).toHaveLength(0);
    // and it stays live afterwards
    await placeBid(bob.id, { lotId: lot.id, amount: "400", isProxy: false });
    await resumed.reader.until((r) => lots(r).length === 3, "the next bid");
  });

  it("a client behind the pruned history gets the state instead of a partial replay", async () => {
    const lot = await createTestLot();
    const alice = await bidder();
    // bids take turns: a leader's own bid raises only their maximum, with no event (record 2702)
    const bob = await bidder();
    await placeBid(alice.id, { lotId: lot.id, amount: "100", isProxy: false });
    await placeBid(bob.id, { lotId: lot.id, amount: "200", isProxy: false });
    const [{ oldest }] = await sequelize.query<{ oldest: string }>(
      "SELECT min(id)::text AS oldest FROM lot_events WHERE lot_id = :id",
      { replacements: { id: lot.id }, type: QueryTypes.SELECT },
    );
    await sequelize.query(
      "UPDATE lot_events SET created_at = now() - interval '2 hours' WHERE id <= :oldest",
      { replacements: { oldest } },
    );
    expect(await pruneLotEvents()).toBeGreaterThanOrEqual(1);
    const resumed = await openLot(alice, lot.id, String(BigInt(oldest) - 1n));
    await resumed.reader.until((r) => r.data("snapshot").length === 1, "the state");
    expect(resumed.reader.data<LiveLot>("snapshot")[0].currentBid).toBe("200.00");
  });

  it("a lot's first viewer gets an event that commits after a newer event of another lot", async () => {
    // Events of different lots commit out of id order; each lot is followed from its own newest
    // event, never from the newest id seen for any lot.
    const [x, y] = [await createTestLot(), await createTestLot()];
    const alice = await bidder();
    const onY = await openLot(alice, y.id);
    const slow = await sequelize.transaction();
    try {
      // lot X's event takes its id now and commits last
      await sequelize.query(
        "UPDATE lots SET current_bid = 150, bid_count = bid_count + 1 WHERE id = :id",
        { replacements: { id: x.id }, transaction: slow },
      );
      await placeBid(alice.id, { lotId: y.id, amount: "100", isProxy: false });
      await onY.reader.until((r) => lots(r).length === 1, "lot Y's event (a higher id)");
      const onX = await openLot(alice, x.id);
      await onX.reader.until((r) => r.data("snapshot").length === 1, "lot X's state");
      await slow.commit();
      await onX.reader.until((r) => lots(r).length === 1, "lot X's event, committed after Y's");
      expect(lots(onX.reader)[0]).toMatchObject({ lotId: String(x.id), currentBid: "150.00" });
      const [xEvent, yEvent] = [onX.reader.events.at(-1)!.id, onY.reader.events.at(-1)!.id];
      expect(BigInt(xEvent) < BigInt(yEvent)).toBe(true);
    } finally {
      await slow.rollback().catch(() => undefined);
    }
  });

  it("a lot with no event in the kept history still starts from its state", async () => {
    const lot = await createTestLot();
    const alice = await bidder();
    // the bid's notification reaches the hub before its event is deleted (one still on its way
    // would be news to a stream whose lot has no event left, as a pruned lot's never is)
    const earlier = await openLot(alice, lot.id);
    await placeBid(alice.id, { lotId: lot.id, amount: "100", isProxy: false });
    await earlier.reader.until((r) => lots(r).length === 1, "the bid");
    earlier.controller.abort();
    await sequelize.query("DELETE FROM lot_events WHERE lot_id = :id", {
      replacements: { id: lot.id },
    });
    const a = await openLot(alice, lot.id);
    await a.reader.until((r) => r.data("snapshot").length === 1, "the state");
    expect(a.reader.data<LiveLot>("snapshot")[0]).toMatchObject({
      currentBid: "100.00",
      bidCount: 1,
      you: "leading",
    });
    expect(a.reader.events[0].id).toBe("0");
    // and what happens next is sent
    await placeBid((await bidder()).id, { lotId: lot.id, amount: "200", isProxy: false });
    await a.reader.until((r) => lots(r).length === 1, "the next bid");
  });

  it("the LISTEN connection comes back after it is cut, and catches up what it missed", async () => {
    const lot = await createTestLot();
    const alice = await bidder();
    const a = await openLot(alice, lot.id);
    await a.reader.until((r) => r.data("snapshot").length === 1, "the state");
    expect(a.reader.closed).toBe(false);
    const hub = liveHub();
    expect(hub.connected).toBe(true);
    // as a database restart would: the server ends the listening backend
    await sequelize.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    );
    await placeBid(alice.id, { lotId: lot.id, amount: "100", isProxy: false });
    await placeBid((await bidder()).id, { lotId: lot.id, amount: "200", isProxy: false });
    await a.reader.until((r) => lots(r).length === 2, "both bids after the reconnect");
    expect(lots(a.reader).map((e) => e.currentBid)).toEqual(["100.00", "200.00"]);
    expect(hub.connected).toBe(true);
  });
});

describe("the stream's upkeep", () => {
  it("sends heartbeats (comment lines) while nothing happens", async () => {
    const saved = streamSettings.heartbeatMs;
    streamSettings.heartbeatMs = 100;
    try {
      const lot = await createTestLot();
      const a = await openLot(await bidder(), lot.id);
      await a.reader.until((r) => r.heartbeats >= 2, "heartbeats");
      // the lot's state, and nothing else
      expect(a.reader.events.map((e) => e.event)).toEqual(["snapshot"]);
    } finally {
      streamSettings.heartbeatMs = saved;
    }
  });

  it("caps one person's open streams and frees a place when one closes", async () => {
    const lot = await createTestLot();
    const alice = await bidder();
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i += 1) streams.push(await openLot(alice, lot.id));
    expect(streams.every((s) => s.response.status === 200)).toBe(true);
    expect(openStreams(alice.id)).toBe(MAX_STREAMS_PER_USER);
    const refused = await openLot(alice, lot.id);
    expect(refused.response.status).toBe(429);
    // someone else is not affected
    expect((await openLot(await bidder(), lot.id)).response.status).toBe(200);
    streams[0].controller.abort();
    expect(openStreams(alice.id)).toBe(MAX_STREAMS_PER_USER - 1);
    expect((await openLot(alice, lot.id)).response.status).toBe(200);
  });

  it("counts the person's streams on other machines (their leases), until a dead machine's run out", async () => {
    const lot = await createTestLot();
    const alice = await bidder();
    // another machine holds seven of Alice's streams, one of them left by a machine that died
    await sequelize.query(
      `INSERT INTO live_stream_leases (user_id, holder, expires_at)
       SELECT $1::uuid, 'other-machine:1:abc', now() + interval '1 minute' FROM generate_series(1, 6)
       UNION ALL SELECT $1::uuid, 'dead-machine:1:def', now() + interval '1 minute'`,
      { bind: [alice.id] },
    );
    expect((await openLot(alice, lot.id)).response.status).toBe(200);
    const refused = await openLot(alice, lot.id);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("retry-after")).toBe("30");
    // the dead machine stops renewing: its lease runs out and no longer counts
    await sequelize.query(
      "UPDATE live_stream_leases SET expires_at = now() - interval '1 second' WHERE holder = 'dead-machine:1:def'",
    );
    expect((await openLot(alice, lot.id)).response.status).toBe(200);
    const [{ n }] = await sequelize.query<{ n: string }>(
      "SELECT count(*) AS n FROM live_stream_leases WHERE user_id = $1",
      { bind: [alice.id], type: QueryTypes.SELECT },
    );
    expect(Number(n)).toBe(MAX_STREAMS_PER_USER);
  });

  it("gives a stream's lease back when it ends, and renews the leases of open ones", async () => {
    const lot = await createTestLot();
    const alice = await bidder();
    const saved = { ...leaseSettings };
    try {
      const stream = await openLot(alice, lot.id);
      const expiry = async () =>
        (
          await sequelize.query<{ expires_at: Date }>(
            "SELECT expires_at FROM live_stream_leases WHERE user_id = $1",
            { bind: [alice.id], type: QueryTypes.SELECT },
          )
        ).map((row) => new Date(row.expires_at).getTime());
      const [first] = await expiry();
      leaseSettings.ttlMs = 5 * 60_000;
      await renewStreamLeases();
      const [renewed] = await expiry();
      expect(renewed).toBeGreaterThan(first);
      stream.controller.abort();
      // the aborted stream gives its lease back
      await waitFor(async () => (await expiry()).length === 0, {
        what: "the lease released",
        timeout: 5_000,
      });
    } finally {
      Object.assign(leaseSettings, saved);
    }
  });

  it("simultaneous opens cannot all pass the cap: the check and the count are one step", async () => {
    const lot = await createTestLot();
    const alice = await bidder();
    const tries = MAX_STREAMS_PER_USER + 3;
    const requests = await Promise.all(
      Array.from({ length: tries }, () => {
        const controller = new AbortController();
        open.push(controller);
        return requestAs(alice, `/live/lots/${lot.id}`, {
          headers: { Accept: "text/event-stream" },
          signal: controller.signal,
        });
      }),
    );
    // all started in the same tick, as simultaneous requests reach the stream
    const responses = await Promise.all(
      requests.map((request) =>
        openEventStream({
          request,
          userId: alice.id,
          lots: [lot.id],
          initial: async () => ({ events: [], newest: new Map() }),
          format: () => null,
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(MAX_STREAMS_PER_USER);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    expect(openStreams(alice.id)).toBe(MAX_STREAMS_PER_USER);
  });

  it("answers 404 for a lot that does not exist and 401 to a visitor", async () => {
    const alice = await bidder();
    await expect(openLot(alice, "999999999")).rejects.toMatchObject({ status: 404 });
    const request = await requestAs(null, "/live/lots/1", {
      headers: { Accept: "text/event-stream", "Sec-Fetch-Dest": "empty" },
    });
    const answer = await lotStream({ request, params: { lotId: "1" }, context: {} }).catch(
      (thrown: unknown) => thrown,
    );
    // the app's scripts get the 401 they turn into the sign-in notice (a DataWithResponseInit)
    expect((answer as { init?: { status?: number } }).init?.status).toBe(401);
  });
});

describe("the list stream", () => {
  it("starts from each card's state and follows every lot on the page", async () => {
    const [one, two] = [await createTestLot(), await createTestLot()];
    const [alice, bob] = [await bidder(), await bidder()];
    await placeBid(alice.id, { lotId: one.id, amount: "100", isProxy: false });
    const list = await openList(alice, [one.id, two.id]);
    await list.reader!.until((r) => r.data("snapshot").length === 2, "the snapshots");
    // every card's state, a lot without bids (so without events) too
    expect(list.reader!.data<LiveLot>("snapshot")).toEqual([
      expect.objectContaining({ lotId: String(one.id), currentBid: "100.00", you: "leading" }),
      expect.objectContaining({ lotId: String(two.id), bidCount: 0, leader: null, you: null }),
    ]);
    await placeBid(bob.id, { lotId: two.id, amount: "150", isProxy: false });
    await placeBid(bob.id, { lotId: one.id, amount: "250", isProxy: false });
    await list.reader!.until((r) => lots(r).length === 2, "both lots");
    expect(lots(list.reader!).map((e) => [e.lotId, e.currentBid, e.you])).toEqual([
      [String(two.id), "150.00", null],
      [String(one.id), "250.00", "outbid"],
    ]);
  });

  it("refuses a bad list with 400 and answers 204 when no lot exists", async () => {
    const alice = await bidder();
    await expect(openList(alice, ["x"])).rejects.toMatchObject({ status: 400 });
    await expect(openList(alice, [])).rejects.toMatchObject({ status: 400 });
    const many = Array.from({ length: 200 }, (_, i) => String(i + 1));
    await expect(openList(alice, many)).rejects.toMatchObject({ status: 400 });
    const none = await openList(alice, ["999999998"]);
    expect(none.response.status).toBe(204);
  });
});
