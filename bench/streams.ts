// The live-stream rows of `npm run bench` (docs/decisions/1801), also runnable alone:
// `npx tsx bench/streams.ts`. One production server on its own database; 2,000 open lot streams
// (40 on each of 50 lots); 100 bids/s spread over the 50 lots, each lot's bids in turn.
// Figures: bid-to-event latency as the subscribers see it (send of the bid to arrival of its
// event, p50/p99 over every subscriber), server memory per open stream, and the bid rate (bids
// as fast as 50 sequential bidders go) with the streams open as a ratio of without (measured
// before opening them and after closing them).
import { readFileSync } from "node:fs";
import http from "node:http";
import pg from "pg";
import { ensureBuilt, type AppProcess } from "../tests/support/app-process";
import { startThrowawayCluster } from "../tests/support/cluster";
import {
  bidThrough,
  liveBidder,
  liveDatabase,
  liveLots,
  startLiveServer,
} from "../tests/support/live-cluster";
import { treeKb } from "../tests/support/process-memory";
import { sseParser } from "../tests/support/sse";
import { resultsTarget, runBench, type Bench } from "./harness";

const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);
const LOTS = 50;
const BIDS_PER_SECOND = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** One person may hold 8 streams per process (MAX_STREAMS_PER_USER): viewers hold 5 each. */
const STREAMS_PER_VIEWER = 5;

/** CPU seconds a process has used (user and system, from /proc; ticks of 1/100 s). */
function cpuSeconds(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds the server and this process (the subscribers and bidders) used during `run`. */
async function cpuDuring<T>(serverPid: number, run: () => Promise<T>) {
  const server = cpuSeconds(serverPid);
  const own = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(own);
  return {
    result,
    cpu: `server CPU ${(cpuSeconds(serverPid) - server).toFixed(1)} s, bench client ${((used.user + used.system) / 1e6).toFixed(1)} s`,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

type Who = { id: string; cookie: string };

/** On while bid-to-event latency is measured: the subscribers parse what they read. */
const measuring = { latency: false };

/** One SSE client on a plain socket (light enough for thousands in one process). */
function openStream(
  app: AppProcess,
  who: Who,
  lotId: string,
  onLot: (price: string, at: number) => void,
): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${app.url}/live/lots/${lotId}`,
      { headers: { Cookie: who.cookie, Accept: "text/event-stream" }, agent: false },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream answered ${response.statusCode}`));
          response.resume();
          return;
        }
        response.setEncoding("utf8");
        // The subscribers run on the server's two cores: while no latency is measured they only
        // read (as a browser on another machine would cost the server nothing more).
        const feed = sseParser((event) => {
          if (event.event !== "lot") return;
          const at = performance.now();
          onLot((JSON.parse(event.data) as { currentBid: string }).currentBid, at);
        });
        response.on("data", (chunk: string) => {
          if (measuring.latency) feed(chunk);
        });
        response.on("error", () => undefined);
        resolve(request);
      },
    );
    request.on("error", reject);
  });
}

/** Each lot's bids in turn, alternating two bidders, until `until`; returns accepted bids. */
async function bidLoop(
  app: AppProcess,
  lots: string[],
  bidders: Who[],
  prices: Map<string, number>,
  until: number,
  pace: number | null,
  sent: Map<string, number> | null,
) {
  let accepted = 0;
  let refused = 0;
  await Promise.all(
    lots.map(async (lotId, index) => {
      let turn = 0;
      // spread each lot's first bid over the first interval
      if (pace) await sleep((index / lots.length) * pace);
      while (performance.now() < until) {
        const next = (prices.get(lotId) ?? 0) + 50;
        const who = bidders[index * 2 + (turn % 2)];
        turn += 1;
        const t = performance.now();
        sent?.set(`${lotId}:${next.toFixed(2)}`, t);
        const response = await bidThrough(app, who, lotId, next);
        await response.text();
        if (response.ok) {
          prices.set(lotId, next);
          accepted += 1;
        } else refused += 1;
        if (pace) await sleep(Math.max(0, pace - (performance.now() - t)));
      }
    }),
  );
  return { accepted, refused };
}

/** Runs the stream rows against a fresh database of its own. */
export async function benchStreams(bench: Bench) {
  const row = bench.row.bind(bench);
  const log = bench.log.bind(bench);
  await ensureBuilt();
  const cluster = await startThrowawayCluster("bench-streams");
  const removeCluster = bench.cluster("the streams' PostgreSQL", cluster);
  const sockets: http.ClientRequest[] = [];
  let app: AppProcess | null = null;
  let stopApp: (() => Promise<void>) | null = null;
  try {
    const databaseUrl = await liveDatabase(cluster.urlFor("postgres"), "bidyard_streams");
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const lots = await liveLots(db, LOTS);
    const bidders: Who[] = [];
    for (let i = 0; i < LOTS * 2; i += 1) bidders.push(await liveBidder(db, `bidder${i}`));
    const viewers: Who[] = [];
    for (let i = 0; i < Math.ceil(STREAMS / STREAMS_PER_VIEWER); i += 1)
      viewers.push(await liveBidder(db, `viewer${i}`));
    await db.end();
    // STREAMS_PROFILE=dir: the server runs under `node --cpu-prof` (read with bench/profile.ts
    // --summarize); the profile's last BENCH_SECONDS are the bid rate with the streams open
    const profileDir = process.env.STREAMS_PROFILE;
    app = await startLiveServer(
      databaseUrl,
      { BID_RATE_LIMIT_PER_MINUTE: "1000000" },
      profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
    );
    const server = app;
    bench.process("the streams' production server", server.proc.pid);
    stopApp = bench.onStop("the streams' production server", server.stop, () =>
      server.proc.kill("SIGKILL"),
    );
    const prices = new Map<string, number>();

    // warm-up, then the bid rate with no stream open
    await bidLoop(app, lots, bidders, prices, performance.now() + 2_000, null, null);
    let t = performance.now();
    const pid = app.proc.pid!;
    const measuredWithout = await cpuDuring(pid, () =>
      bidLoop(app!, lots, bidders, prices, t + SECONDS * 1000, null, null),
    );
    const without = measuredWithout.result;
    const rateWithout = without.accepted / ((performance.now() - t) / 1000);
    log(
      `bids without streams: ${rateWithout.toFixed(0)}/s (${without.refused} refused); ${measuredWithout.cpu}`,
    );

    const baseKb = treeKb(app.proc.pid!, "VmRSS");
    const sent = new Map<string, number>();
    const latencies: number[] = [];
    for (let i = 0; i < STREAMS; i += 1) {
      const lotId = lots[i % LOTS];
      const viewer = viewers[Math.floor(i / STREAMS_PER_VIEWER)];
      sockets.push(
        await openStream(app, viewer, lotId, (price, at) => {
          const from = sent.get(`${lotId}:${price}`);
          if (from !== undefined) latencies.push(at - from);
        }),
      );
    }
    await sleep(3_000);
    const openKb = treeKb(app.proc.pid!, "VmRSS");
    const perStreamKb = ((openKb - baseKb) * 1024) / STREAMS / 1000;
    row(
      `server memory per open stream (${STREAMS.toLocaleString("en-US")} open)`,
      `${perStreamKb.toFixed(1)} KB`,
      "≤ 20 KB",
      perStreamKb <= 20,
    );

    // 100 bids/s over 50 lots with every stream open: latency as the subscribers see it
    const pace = (1000 * LOTS) / BIDS_PER_SECOND;
    measuring.latency = true;
    t = performance.now();
    const paced = await bidLoop(app, lots, bidders, prices, t + SECONDS * 1000, pace, sent);
    const pacedRate = paced.accepted / ((performance.now() - t) / 1000);
    await sleep(2_000);
    measuring.latency = false;
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    log(
      `paced bids: ${pacedRate.toFixed(0)}/s; events received: ${latencies.length.toLocaleString("en-US")} ` +
        `(expected about ${(paced.accepted * (STREAMS / LOTS)).toLocaleString("en-US")})`,
    );
    row(
      `bid-to-event latency, ${STREAMS.toLocaleString("en-US")} streams, ${pacedRate.toFixed(0)} bids/s over ${LOTS} lots`,
      `p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms`,
      "p99 ≤ 250 ms",
      p99 <= 250,
    );

    // the bid rate again, with the streams open
    t = performance.now();
    const measuredWith = await cpuDuring(pid, () =>
      bidLoop(app!, lots, bidders, prices, t + SECONDS * 1000, null, null),
    );
    const withStreams = measuredWith.result;
    const rateWith = withStreams.accepted / ((performance.now() - t) / 1000);
    log(`bids with the streams open: ${rateWith.toFixed(0)}/s; ${measuredWith.cpu}`);

    // and without them once more: the tables grow as the run bids, so the rate without streams is
    // the mean of before and after, which cancels that drift out of the ratio
    for (const socket of sockets.splice(0)) socket.destroy();
    await sleep(2_000);
    t = performance.now();
    const measuredAfter = await cpuDuring(pid, () =>
      bidLoop(app!, lots, bidders, prices, t + SECONDS * 1000, null, null),
    );
    const rateAfter = measuredAfter.result.accepted / ((performance.now() - t) / 1000);
    log(`bids after the streams closed: ${rateAfter.toFixed(0)}/s; ${measuredAfter.cpu}`);
    const rateWithoutMean = (rateWithout + rateAfter) / 2;
    const ratio = rateWith / rateWithoutMean;
    row(
      `bid rate with ${STREAMS.toLocaleString("en-US")} streams open / without (mean of before and after)`,
      `${rateWith.toFixed(0)}/s / ${rateWithoutMean.toFixed(0)}/s = ${ratio.toFixed(2)}`,
      "≥ 0.8",
      ratio >= 0.8,
    );
  } finally {
    for (const socket of sockets) socket.destroy();
    await stopApp?.();
    await removeCluster();
  }
}

// `npx tsx bench/streams.ts`: these rows alone, written as DATE-streams (or BENCH_NAME).
if (import.meta.url === `file://${process.argv[1]}`) {
  const target = resultsTarget();
  runBench(
    {
      ...target,
      name: process.env.BENCH_NAME ? target.name : `${target.name}-streams`,
      preamble: () => [`The live-stream rows alone (bench/streams.ts), ${SECONDS} s per load.`],
    },
    benchStreams,
  );
}
