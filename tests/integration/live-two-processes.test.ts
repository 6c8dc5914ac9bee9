// Live streams across machines (docs/decisions/1801): two production servers (server/ over the
// build) on one PostgreSQL of their own. A bid through one reaches a stream served by the other;
// after a PostgreSQL restart the listeners reconnect, and a browser resuming with Last-Event-ID
// gets every event it missed.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveLot } from "~/services/auctions/live";
import { startLocalCluster } from "../../db/postgres";
import { ensureBuilt, type AppProcess } from "../support/app-process";
import { startThrowawayCluster } from "../support/cluster";
import {
  bidThrough,
  liveBidder,
  liveDatabase,
  liveLots,
  startLiveServer,
  streamFrom,
} from "../support/live-cluster";
import { SseReader } from "../support/sse";
import { waitFor } from "../support/wait";

const TUNING = ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"];

let cluster: Awaited<ReturnType<typeof startThrowawayCluster>>;
let db: pg.Client;
let databaseUrl: string;
const apps: AppProcess[] = [];
const streams: AbortController[] = [];

beforeAll(async () => {
  await ensureBuilt();
  cluster = await startThrowawayCluster("live-two");
  databaseUrl = await liveDatabase(cluster.urlFor("postgres"), "bidyard_live");
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  apps.push(await startLiveServer(databaseUrl), await startLiveServer(databaseUrl));
}, 240_000);

afterAll(async () => {
  for (const controller of streams) controller.abort();
  await Promise.all(apps.map((app) => app.stop()));
  await db?.end().catch(() => undefined);
  await cluster?.remove();
}, 60_000);

async function open(app: AppProcess, who: { cookie: string }, lotId: string, lastEventId?: string) {
  const controller = new AbortController();
  streams.push(controller);
  const response = await streamFrom(app, who, `/live/lots/${lotId}`, {
    lastEventId,
    signal: controller.signal,
  });
  expect(response.status, app.output()).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  // not compressed (a compressed stream would sit in the compressor's buffer)
  expect(response.headers.get("content-encoding")).toBeNull();
  // written straight to the socket, with no chunked framing around each event (record 1803)
  expect(response.headers.get("transfer-encoding")).toBeNull();
  return { controller, reader: new SseReader(response.body!) };
}

const lots = (reader: SseReader) => reader.data<LiveLot>("lot");

/** Bids through `app`, retrying while it answers 503 (its pool reconnecting after a restart). */
async function bidUntilAccepted(
  app: AppProcess,
  who: { cookie: string },
  lotId: string,
  amount: number,
) {
  await waitFor(
    async () => {
      const response = await bidThrough(app, who, lotId, amount).catch(() => null);
      if (response?.ok) return true;
      const body = await response?.text();
      if (response && response.status !== 503 && response.status !== 500)
        throw new Error(`bid refused: ${response.status} ${body}`);
      return false;
    },
    { what: "the bid accepted", timeout: 30_000, every: 250, detail: app.output },
  );
}

describe("two production servers on one database", () => {
  it("a bid through one reaches a stream on the other, with 'outbid' for the one it beat", async () => {
    const [a, b] = apps;
    const alice = await liveBidder(db, "alice");
    const bob = await liveBidder(db, "bob");
    const [lotId] = await liveLots(db, 1);
    const onB = await open(b, alice, lotId);

    await bidUntilAccepted(a, alice, lotId, 100);
    await onB.reader.until((r) => lots(r).length === 1, "alice's bid on server B");
    expect(lots(onB.reader)[0]).toMatchObject({ currentBid: "100.00", you: "leading" });

    await bidUntilAccepted(a, bob, lotId, 200);
    await onB.reader.until((r) => lots(r).length === 2, "bob's bid on server B");
    expect(lots(onB.reader)[1]).toMatchObject({ currentBid: "200.00", you: "outbid" });
  });

  it("answers JSON whole: a small one plain with its length, a large one compressed", async () => {
    const [a] = apps;
    const alice = await liveBidder(db, "alice");
    const [lotId] = await liveLots(db, 25);
    const bid = await bidThrough(a, alice, lotId, 100);
    expect(bid.status).toBe(201);
    expect(bid.headers.get("content-encoding")).toBeNull();
    const text = await bid.text();
    expect(Number(bid.headers.get("content-length"))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text).bid.currentBid).toBe("100.00");

    const list = await fetch(`${a.url}/api/auctions?limit=20`, {
      headers: { Cookie: alice.cookie, "Accept-Encoding": "gzip" },
    });
    expect(list.status).toBe(200);
    expect(list.headers.get("content-encoding")).toBe("gzip");
    const body = (await list.json()) as unknown;
    expect(JSON.stringify(body).length).toBeGreaterThan(1024);
  });

  it("after a PostgreSQL restart: streams that stayed open and a resumed one miss nothing", async () => {
    const [a, b] = apps;
    const alice = await liveBidder(db, "alice");
    const bob = await liveBidder(db, "bob");
    const [lotId] = await liveLots(db, 1);
    await bidUntilAccepted(a, alice, lotId, 100);

    const stays = await open(b, bob, lotId);
    const resumes = await open(b, alice, lotId);
    await resumes.reader.until((r) => r.data("snapshot").length === 1, "the snapshot");
    const lastEventId = resumes.reader.events.at(-1)!.id;
    // this browser loses its connection with the restart
    resumes.controller.abort();

    await db.end();
    await cluster.stop();
    await startLocalCluster({ dataDir: cluster.dataDir, port: cluster.port, tuning: TUNING });
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();

    await bidUntilAccepted(a, bob, lotId, 200);
    await bidUntilAccepted(a, alice, lotId, 300);
    await bidUntilAccepted(b, bob, lotId, 400);

    await stays.reader.until((r) => lots(r).length === 3, "all three bids after the restart");
    expect(lots(stays.reader).map((e) => e.currentBid)).toEqual(["200.00", "300.00", "400.00"]);

    const back = await open(b, alice, lotId, lastEventId);
    await back.reader.until((r) => lots(r).length === 3, "the three missed bids");
    expect(lots(back.reader).map((e) => [e.currentBid, e.you])).toEqual([
      ["200.00", "outbid"],
      ["300.00", "leading"],
      ["400.00", "outbid"],
    ]);
    // served from the other process too
    const onA = await open(a, alice, lotId, lastEventId);
    await onA.reader.until((r) => lots(r).length === 3, "the same replay from server A");
  });
});
