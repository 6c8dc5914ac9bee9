// The `regions` part of `npm run bench` (docs/decisions/3701, 3702): what a far buyer gains from
// being served in their own region. tests/support/two-regions.ts on this machine: a primary and a
// real streaming replica, the production server as "dfw" (beside the primary) and "ams" (beside
// the replica, its connection to the primary DISTANCE_MS away), and two edges: `primaryOnly`
// (every request answered in dfw, DISTANCE_MS away: the far buyer before regions) and `farEdge`
// (the far buyer's edge at ams, fly-replay to dfw costing DISTANCE_MS). Measured:
// 1. the list and lot pages, signed in, through both edges: p50 and p95, and what the second saves;
// 2. far buyers bidding, then at once reading their lot page and the list, through `farEdge`:
//    failed bids, lot pages missing the buyer's own bid, where the reads were served, their
//    latency; once with the replica applying at once and once with it LAGGING_APPLY_MS behind.
import { performance } from "node:perf_hooks";
import { liveBidder, liveLots } from "../tests/support/live-cluster";
import { startTwoRegions, type TwoRegions } from "../tests/support/two-regions";
import { stats, type Stats } from "../soak/latency";
import { postmasterPid, type Bench } from "./harness";

const DISTANCE_MS = 100;
/** requests per page and edge in the latency rows, by CLIENTS clients at once */
const PAGE_REQUESTS = Number(process.env.BENCH_REGIONS_REQUESTS ?? 200);
const CLIENTS = 4;
/** requests in each mixed run (bids, lot pages, lists), by BUYERS buyers at once */
const MIXED_REQUESTS = Number(process.env.BENCH_REGIONS_MIXED ?? 1000);
/** 8 buyers bid ~42 times each: under the bid limiter's 60 a minute (the servers' default) */
const BUYERS = 8;
/** the lagging replica's recovery_min_apply_delay: more than the 150 ms a read waits for it */
const LAGGING_APPLY_MS = 500;
const LIST_LOTS = 40;

const ms = (n: number) => `${Math.round(n)} ms`;
const pct = (part: number, whole: number) =>
  whole ? `${((100 * part) / whole).toFixed(1)} %` : "–";
const describe = (s: Stats | null) =>
  s ? `p50 ${ms(s.p50)}, p95 ${ms(s.p95)} (n = ${s.n})` : "none";

/** Two regions for the bench: their processes listed, stopped however the run ends. */
async function twoRegions(bench: Bench, name: string, applyDelayMs: number) {
  const regions = await startTwoRegions(name, { distanceMs: DISTANCE_MS, applyDelayMs });
  bench.process(`region dfw (${name})`, regions.dfw.proc.pid);
  bench.process(`region ams (${name})`, regions.ams.proc.pid);
  const primaryPid = postmasterPid(regions.cluster.dataDir);
  const replicaPid = postmasterPid(regions.replica.dataDir);
  if (primaryPid) bench.process(`the primary PostgreSQL (${name})`, primaryPid);
  if (replicaPid) bench.process(`the replica PostgreSQL (${name})`, replicaPid);
  const stop = bench.onStop(`two regions (${name})`, () => regions.stop());
  return { regions, stop };
}

/** The cookies a buyer's browser holds: the session, then whatever answers set. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  constructor(cookie: string) {
    this.add([cookie]);
  }
  private add(pairs: string[]) {
    for (const pair of pairs) {
      const at = pair.indexOf("=");
      if (at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  take(response: Response) {
    this.add(response.headers.getSetCookie().map((line) => line.split(";")[0]));
  }
  get header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

type Answer = { status: number; text: string; ms: number; response: Response | null };

/** A request through an edge, timed to the end of its body; a network error is status 0. */
async function through(
  edge: string,
  path: string,
  cookie: string,
  init: { method?: string; body?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { cookie };
  if (init.method === "POST") {
    headers.origin = edge;
    headers["content-type"] = "application/json";
    headers.accept = "application/json";
  }
  const t = performance.now();
  try {
    const response = await fetch(`${edge}${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.body,
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, text, ms: performance.now() - t, response };
  } catch (error) {
    return { status: 0, text: String(error), ms: performance.now() - t, response: null };
  }
}

/** A replay answer that reached the client (the edge drops its fly-replay header, not its body). */
const leakedReplay = (answer: Answer) =>
  answer.status === 409 && answer.text.startsWith("This request is answered in");

/** `count` GETs of `path` through `edge` by CLIENTS clients at once, after a warm-up. */
async function pageLatency(edge: string, path: string, cookie: string, count: number) {
  for (let i = 0; i < 10; i += 1) await through(edge, path, cookie);
  const times: number[] = [];
  let failed = 0;
  let sent = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (sent < count) {
        sent += 1;
        const answer = await through(edge, path, cookie);
        times.push(answer.ms);
        if (answer.status !== 200) failed += 1;
      }
    }),
  );
  return { stats: stats(times)!, failed };
}

/** The "Current bid" a lot page shows, in dollars (0 for "No bids", null if not found). */
function currentBid(html: string) {
  const match = /data-testid="current-bid"[^>]*>([^<]*)</.exec(html);
  if (!match) return null;
  const text = match[1].replace(/[$,\s]/g, "");
  return /^[0-9.]+$/.test(text) ? Number(text) : 0;
}

/**
 * Whether a lot page shows the buyer's own last bid on a lot only they bid on: they lead, the
 * price is at least what the bid's answer said, and their bid is the price (their first) or their
 * maximum (a leader's bid raises their maximum, docs/decisions/2702). Else what it showed.
 */
function ownBidSeen(html: string, mine: number, answeredPrice: number): true | string {
  const price = currentBid(html);
  const max = /your maximum: \$([0-9,.]+)/.exec(html);
  const maximum = max ? Number(max[1].replace(/,/g, "")) : 0;
  const leads = html.includes("You are the high bidder");
  if (leads && price !== null && price >= answeredPrice && Math.max(price, maximum) >= mine)
    return true;
  return `bid $${mine}, the page: price ${price === null ? "none" : `$${price}`}, maximum $${maximum}${leads ? "" : ", not leading"}`;
}

async function beforeAfter(bench: Bench, regions: TwoRegions) {
  const reader = await liveBidder(regions.db, "bench-far-reader");
  const [lotId] = await liveLots(regions.db, LIST_LOTS);
  await regions.caughtUp();
  const pages = [
    { label: "the auction list (/auctions)", path: "/auctions" },
    { label: "a lot page (/auctions/:lotId)", path: `/auctions/${lotId}` },
  ];
  for (const page of pages) {
    const before = await pageLatency(
      regions.primaryOnly.url,
      page.path,
      reader.cookie,
      PAGE_REQUESTS,
    );
    const servedFrom = regions.farEdge.served.length;
    const after = await pageLatency(regions.farEdge.url, page.path, reader.cookie, PAGE_REQUESTS);
    const served = regions.farEdge.served.slice(servedFrom).filter((s) => s.path === page.path);
    const inAms = served.filter((s) => s.region === "ams" && !s.replayed).length;
    const saving = before.stats.p50 - after.stats.p50;
    const failed = before.failed + after.failed;
    bench.row(
      `far buyer ${DISTANCE_MS} ms from dfw, ${page.label}, signed in, ${PAGE_REQUESTS} requests ` +
        `per edge by ${CLIENTS} clients: before (all from dfw) against after (served in ams)`,
      `before p50 ${ms(before.stats.p50)}, p95 ${ms(before.stats.p95)}; after p50 ` +
        `${ms(after.stats.p50)}, p95 ${ms(after.stats.p95)}; p50 ${ms(saving)} less ` +
        `(after/before ${(after.stats.p50 / before.stats.p50).toFixed(2)} ×), p95 ` +
        `${ms(before.stats.p95 - after.stats.p95)} less; ${inAms} of ${served.length} served in ams` +
        `${failed ? `; ${failed} not 200` : ""}`,
      `p50 saves ≥ one round trip (${DISTANCE_MS} ms)`,
      saving >= DISTANCE_MS && failed === 0,
    );
  }
}

type Mixed = {
  requests: number;
  bids: number;
  placed: number;
  refused: number;
  rateLimited: number;
  failedBids: number;
  pagesChecked: number;
  stale: number;
  failedReads: number;
  bidMs: number[];
  readMs: number[];
  ownPageMs: number[];
  staleExamples: string[];
};

/** BUYERS far buyers through `farEdge`: bid on their own lot, read it at once, read the list. */
async function mixed(regions: TwoRegions, total: number): Promise<Mixed> {
  // one at a time: regions.db is a single client
  const buyers: Array<{ cookie: string }> = [];
  for (let i = 0; i < BUYERS; i += 1) buyers.push(await liveBidder(regions.db, `bench-far-${i}`));
  const lots = await liveLots(regions.db, BUYERS);
  await regions.caughtUp();
  const edge = regions.farEdge.url;
  const m: Mixed = {
    requests: 0,
    bids: 0,
    placed: 0,
    refused: 0,
    rateLimited: 0,
    failedBids: 0,
    pagesChecked: 0,
    stale: 0,
    failedReads: 0,
    bidMs: [],
    readMs: [],
    ownPageMs: [],
    staleExamples: [],
  };
  const read = async (jar: CookieJar, path: string) => {
    m.requests += 1;
    const answer = await through(edge, path, jar.header);
    if (answer.response) jar.take(answer.response);
    m.readMs.push(answer.ms);
    if (answer.status !== 200) m.failedReads += 1;
    return answer;
  };
  await Promise.all(
    buyers.map(async (buyer, b) => {
      const jar = new CookieJar(buyer.cookie);
      const lotId = lots[b];
      let amount = 100;
      let mine = 0; // the buyer's last placed bid on their lot
      let placed: { currentBid: string } | null = null; // its answer
      while (m.requests < total) {
        m.requests += 1;
        m.bids += 1;
        const bid = await through(edge, "/api/bids", jar.header, {
          method: "POST",
          body: JSON.stringify({ vehicleId: lotId, amount: `${amount}.00`, isProxyBid: false }),
        });
        if (bid.response) jar.take(bid.response);
        m.bidMs.push(bid.ms);
        if (bid.status === 201) {
          m.placed += 1;
          mine = amount;
          amount += 50;
          placed = (JSON.parse(bid.text) as { bid: { currentBid: string } }).bid;
        } else if (bid.status === 0 || bid.status >= 500 || leakedReplay(bid)) {
          m.failedBids += 1;
        } else if (bid.status === 429) {
          m.rateLimited += 1;
        } else {
          m.refused += 1;
        }
        if (m.requests >= total) break;
        const page = await read(jar, `/auctions/${lotId}`);
        m.ownPageMs.push(page.ms);
        if (page.status === 200 && placed) {
          m.pagesChecked += 1;
          const seen = ownBidSeen(page.text, mine, Number(placed.currentBid));
          if (seen !== true) {
            m.stale += 1;
            if (m.staleExamples.length < 3) m.staleExamples.push(seen);
          }
        }
        if (m.requests >= total) break;
        await read(jar, "/auctions");
      }
    }),
  );
  return m;
}

async function mixedRows(bench: Bench, regions: TwoRegions, replicaLabel: string, total: number) {
  const servedFrom = regions.farEdge.served.length;
  const t0 = performance.now();
  const m = await mixed(regions, total);
  const seconds = (performance.now() - t0) / 1000;
  const reads = regions.farEdge.served.slice(servedFrom).filter((s) => s.method === "GET");
  const inAms = reads.filter((s) => s.region === "ams" && !s.replayed).length;
  const own = reads.filter((s) => s.path.startsWith("/auctions/"));
  const ownInAms = own.filter((s) => s.region === "ams" && !s.replayed).length;
  const list = reads.filter((s) => s.path === "/auctions");
  const listInAms = list.filter((s) => s.region === "ams" && !s.replayed).length;
  const scenario = `far buyers' mixed requests through their edge, ${replicaLabel} (${BUYERS} buyers at once, ${m.requests} requests in ${seconds.toFixed(1)} s: a bid, their lot page at once, /auctions)`;
  bench.row(
    `${scenario}: failed bids (a 5xx, a network error or a replay reaching the buyer)`,
    `${m.failedBids} of ${m.bids} bids (${m.placed} placed, ${m.refused} refused by the rules, ` +
      `${m.rateLimited} rate-limited); bids p50 ${ms(stats(m.bidMs)!.p50)}, p95 ${ms(stats(m.bidMs)!.p95)}`,
    "0",
    m.failedBids === 0,
  );
  bench.row(
    `${scenario}: stale own-writes (the lot page right after the buyer's bid without it)`,
    `${m.stale} of ${m.pagesChecked} lot pages checked` +
      (m.staleExamples.length ? ` (e.g. ${m.staleExamples.join("; ")})` : "") +
      (m.failedReads ? `; ${m.failedReads} reads not 200` : ""),
    "0",
    m.stale === 0 && m.failedReads === 0,
  );
  bench.row(
    `${scenario}: reads served in ams (the rest replayed to dfw)`,
    `${inAms} of ${reads.length} (${pct(inAms, reads.length)}); the lot page right after the ` +
      `bid ${ownInAms} of ${own.length} (${pct(ownInAms, own.length)}), /auctions ${listInAms} of ` +
      `${list.length} (${pct(listInAms, list.length)})`,
    "reported",
    null,
  );
  bench.row(
    `${scenario}: read latency`,
    `all reads ${describe(stats(m.readMs))}; the lot page right after the bid ${describe(stats(m.ownPageMs))}`,
    "reported",
    null,
  );
}

export async function benchRegions(bench: Bench) {
  const t0 = performance.now();
  const first = await twoRegions(bench, "bench", 0);
  try {
    await beforeAfter(bench, first.regions);
    await mixedRows(bench, first.regions, "replica applying at once", MIXED_REQUESTS);
  } finally {
    await first.stop();
  }
  if (process.env.BENCH_REGIONS_LAGGING !== "0") {
    const lagging = await twoRegions(bench, "bench-lagging", LAGGING_APPLY_MS);
    try {
      await mixedRows(
        bench,
        lagging.regions,
        `replica applying ${LAGGING_APPLY_MS} ms late`,
        MIXED_REQUESTS,
      );
    } finally {
      await lagging.stop();
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  bench.row(
    "the regions part, start to end (its own clusters and servers)",
    `${seconds.toFixed(0)} s`,
    "reported",
    null,
  );
}
