// A far buyer served in their own region (docs/decisions/3701): the production server in "dfw"
// beside the primary and in "ams" beside a real streaming replica that replays 2 s behind, an edge
// that honours fly-replay, 100 ms between the regions. The buyer's reads are served in ams, their
// writes in dfw, and they see their own bid at once; a far stream misses no bid; with the replica
// stopped, reads are replayed and /healthz says so.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveLot } from "~/services/auctions/live";
import { ensureBuilt } from "../support/app-process";
import { liveBidder, liveLots, liveServerEnv } from "../support/live-cluster";
import { SseReader } from "../support/sse";
import { startTwoRegions, type TwoRegions } from "../support/two-regions";
import { waitFor } from "../support/wait";

const DISTANCE_MS = 100;
let regions: TwoRegions;
const streams: AbortController[] = [];

beforeAll(async () => {
  await ensureBuilt();
  regions = await startTwoRegions("two", { distanceMs: DISTANCE_MS, applyDelayMs: 2_000 });
}, 240_000);

afterAll(async () => {
  for (const controller of streams) controller.abort();
  await regions?.stop();
}, 60_000);

/** A request through the far buyer's edge; `served` says where each was answered. */
function viaFarEdge(path: string, init: RequestInit & { cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", init.cookie);
  if (init.method && init.method !== "GET") headers.set("Origin", regions.farEdge.url);
  return fetch(`${regions.farEdge.url}${path}`, { ...init, headers, redirect: "manual" });
}

function lastServed(path: string) {
  return regions.farEdge.served.filter((entry) => entry.path === path).at(-1);
}

/** The cookies an answer sets, as a Cookie header adds them to `cookie`. */
function withSetCookies(cookie: string, response: Response) {
  const set = response.headers.getSetCookie().map((line) => line.split(";")[0]);
  return [cookie, ...set].join("; ");
}

describe("a far buyer", () => {
  it("gets the auction list from their own region", async () => {
    const buyer = await liveBidder(regions.db, "lister");
    await regions.caughtUp();
    const response = await viaFarEdge("/auctions", { cookie: buyer.cookie });
    expect(response.status).toBe(200);
    expect(lastServed("/auctions")).toMatchObject({ region: "ams", replayed: false });
  });

  it("bids in the primary region and sees their own bid at once, though the replica is 2 s behind", async () => {
    const buyer = await liveBidder(regions.db, "far");
    const [lotId] = await liveLots(regions.db, 1);
    // the replica has the lot: the page is served in ams
    await waitFor(
      async () =>
        (await regions.replica.replayLsn()) !== null &&
        (await viaFarEdge(`/auctions/${lotId}`, { cookie: buyer.cookie })).status === 200 &&
        lastServed(`/auctions/${lotId}`)?.region === "ams",
      { what: "the lot page served in ams", timeout: 15_000, every: 200 },
    );

    const bid = await viaFarEdge("/api/bids", {
      method: "POST",
      cookie: buyer.cookie,
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ vehicleId: lotId, amount: "1250.00", isProxyBid: false }),
    });
    expect(bid.status, await bid.clone().text()).toBe(201);
    expect(lastServed("/api/bids")).toMatchObject({ region: "dfw", replayed: true });
    // the primary's log position after the write, for reads elsewhere to wait for
    const cookie = withSetCookies(buyer.cookie, bid);
    expect(cookie).toMatch(/bidyard_wal=[0-9A-F]+%2F[0-9A-F]+/i);

    const page = await viaFarEdge(`/auctions/${lotId}`, { cookie });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("You are the high bidder");
    expect(html).toContain("$1,250");
    // 2 s behind: the page could not wait that long and came from the primary region
    expect(lastServed(`/auctions/${lotId}`)).toMatchObject({ region: "dfw", replayed: true });

    // someone without that write sees the replica's page, still without the bid
    const other = await liveBidder(regions.db, "other");
    await regions.caughtUp();
    await waitFor(
      async () => (await viaFarEdge(`/auctions/${lotId}`, { cookie: other.cookie })).ok,
      {
        what: "the other buyer's page",
        timeout: 15_000,
      },
    );
    expect(lastServed(`/auctions/${lotId}`)).toMatchObject({ region: "ams" });

    // once the replica has caught up, the buyer's own page is served in their region again
    await waitFor(
      async () => {
        const again = await viaFarEdge(`/auctions/${lotId}`, { cookie });
        const text = await again.text();
        return (
          lastServed(`/auctions/${lotId}`)?.region === "ams" &&
          text.includes("You are the high bidder")
        );
      },
      { what: "the buyer's page from the caught-up replica", timeout: 15_000, every: 250 },
    );
  });

  it("bids with the form, no script: the post is replayed before its body is read, the redirect shows the bid", async () => {
    const buyer = await liveBidder(regions.db, "form");
    const [lotId] = await liveLots(regions.db, 1);
    const posted = await viaFarEdge(`/auctions/${lotId}`, {
      method: "POST",
      cookie: buyer.cookie,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ amount: "900" }).toString(),
    });
    expect([302, 303]).toContain(posted.status);
    expect(lastServed(`/auctions/${lotId}`)).toMatchObject({ region: "dfw", replayed: true });
    const page = await viaFarEdge(posted.headers.get("location")!, {
      cookie: withSetCookies(buyer.cookie, posted),
    });
    expect(await page.text()).toContain("You are the high bidder");
  });

  it("receives every bid on a far stream, including on one opened between two bids", async () => {
    const buyer = await liveBidder(regions.db, "watcher");
    const rival = await liveBidder(regions.db, "rival");
    const [lotId] = await liveLots(regions.db, 1);
    await regions.caughtUp();
    const open = async () => {
      const controller = new AbortController();
      streams.push(controller);
      const response = await viaFarEdge(`/live/lots/${lotId}`, {
        cookie: buyer.cookie,
        headers: { Accept: "text/event-stream" },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(lastServed(`/live/lots/${lotId}`)).toMatchObject({ region: "ams", replayed: false });
      return new SseReader(response.body!);
    };
    const bidAs = async (who: { cookie: string }, amount: string) => {
      const response = await viaFarEdge("/api/bids", {
        method: "POST",
        cookie: who.cookie,
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ vehicleId: lotId, amount, isProxyBid: false }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
    };
    const first = await open();
    await bidAs(rival, "500.00");
    const second = await open();
    await bidAs(buyer, "600.00");
    // a stream's first event is the lot's state ("snapshot"), then one "lot" event per bid
    const prices = (reader: SseReader) =>
      reader.events
        .filter((event) => event.event === "snapshot" || event.event === "lot")
        .map((event) => Number((JSON.parse(event.data) as LiveLot).currentBid))
        .filter((price) => price > 0);
    await waitFor(() => prices(first).includes(600) && prices(second).includes(600), {
      what: "both streams to carry the second bid",
      timeout: 15_000,
    });
    expect(prices(first)).toEqual([500, 600]);
    // the second stream started after the first bid: its first state has it, then the second
    expect(prices(second)).toEqual([500, 600]);
  });

  it("is served from the primary region while the replica is down, and /healthz says so", async () => {
    const health = () =>
      fetch(`${regions.ams.url}/healthz`).then(async (r) => [r.status, await r.text()] as const);
    const watcher = await liveBidder(regions.db, "outage");
    await regions.caughtUp();
    await waitFor(async () => /region ams \(primary dfw\): replica ok/.test((await health())[1]), {
      what: "/healthz to report the replica read",
      timeout: 15_000,
    });
    await regions.replica.stop();
    try {
      await waitFor(async () => /replica down; pages come from dfw/.test((await health())[1]), {
        what: "/healthz to report the replica down",
        timeout: 15_000,
      });
      // the machine still serves: its health stays 200
      expect((await health())[0]).toBe(200);
      const list = await viaFarEdge("/auctions", { cookie: watcher.cookie });
      expect(list.status).toBe(200);
      expect(lastServed("/auctions")).toMatchObject({ region: "dfw", replayed: true });
    } finally {
      await regions.replica.start();
    }
    await waitFor(async () => /replica ok/.test((await health())[1]), {
      what: "the replica back",
      timeout: 30_000,
    });
  });
});

describe("the far region's machine", () => {
  it("answers a write and a page that did not opt in with a replay, before reading the body", async () => {
    const post = await fetch(`${regions.ams.url}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: regions.ams.url },
      body: "message=hello",
    });
    expect(post.headers.get("fly-replay")).toBe("region=dfw");
    const deposit = await fetch(`${regions.ams.url}/deposit`, { redirect: "manual" });
    expect(deposit.headers.get("fly-replay")).toBe("region=dfw");
    // the home page: a visitor's landing page is served there, a signed-in dashboard (which
    // records a first visit) is replayed
    const landing = await fetch(`${regions.ams.url}/`);
    expect(landing.headers.get("fly-replay")).toBeNull();
    expect(landing.status).toBe(200);
    const signedIn = await liveBidder(regions.db, "home");
    const dashboard = await fetch(`${regions.ams.url}/`, { headers: { Cookie: signedIn.cookie } });
    expect(dashboard.headers.get("fly-replay")).toBe("region=dfw");
    // an opted-in page is served there
    const buyer = await liveBidder(regions.db, "direct");
    await regions.caughtUp();
    const list = await fetch(`${regions.ams.url}/auctions`, { headers: { Cookie: buyer.cookie } });
    expect(list.headers.get("fly-replay")).toBeNull();
    expect(list.status).toBe(200);
  });

  it("sends an upload over 1 MB on to the primary region itself (Fly replays only 1 MB)", async () => {
    const buyer = await liveBidder(regions.db, "uploader");
    const form = new FormData();
    form.append(
      "file",
      new Blob([new Uint8Array(2 * 1024 * 1024)], { type: "image/jpeg" }),
      "big.jpg",
    );
    const response = await viaFarEdge("/kyc-verification", {
      method: "POST",
      cookie: buyer.cookie,
      body: form,
    });
    const text = await response.text();
    expect(text).not.toContain("body too large to replay");
    expect(response.status).toBeLessThan(500);
    // answered by the primary region: only there does a write's answer carry the log position
    expect(response.headers.getSetCookie().join("\n")).toContain("bidyard_wal=");
    expect(lastServed("/kyc-verification")).toMatchObject({ region: "ams", replayed: false });
  });

  it("runs no background jobs", async () => {
    const env = liveServerEnv(regions.databaseUrl, 0, { PRIMARY_REGION: "dfw", FLY_REGION: "ams" });
    const worker = spawn("node", ["build/server/jobs.js"], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as NodeJS.ProcessEnv,
    });
    let output = "";
    worker.stdout.on("data", (chunk: Buffer) => (output += chunk));
    worker.stderr.on("data", (chunk: Buffer) => (output += chunk));
    try {
      await waitFor(() => output.includes("it takes no jobs"), {
        what: "the worker to say it takes no jobs",
        timeout: 20_000,
        detail: () => output,
      });
      // and keeps running (idle), as a worker machine placed there by mistake would
      expect(worker.exitCode).toBeNull();
    } finally {
      worker.kill("SIGTERM");
    }
  });
});
