// npm run bench: BidYard's production build against this machine's own ceilings and against a
// minimal Remix app built from the same packages (bench/reference), in one run, on its own
// PostgreSQL with 300,000 lots and 100,000 listings. Prints every row with its target and writes
// bench/results/DATE.json and DATE.md, also when the run stops early (bench/harness.ts). Not part
// of `npm test`. How it measures: docs/decisions/1104, 1901 and 2901–2906.
import { randomBytes } from "node:crypto";
import os from "node:os";
import pg from "pg";
import { startLocalServices } from "../scripts/local-services";
import { flyMachine } from "../tests/support/fly-machine";
import { ensureBuilt, startApp, waitFor200, type AppProcess } from "../tests/support/app-process";
import { freePort, startThrowawayCluster } from "../tests/support/cluster";
import { createDatabase, migrateDatabase } from "../tests/support/databases";
import { treeKb } from "../tests/support/process-memory";
import { bidSeenElsewhere } from "./browser";
import { helloCeiling, pgbenchTps, rawBidCeiling } from "./ceilings";
import { cpuDuring } from "./cpu";
import { chromiumPath, postmasterPid, resultsTarget, runBench, type Bench } from "./harness";
import { load, percentile, type LoadResult } from "./load";
import { openLoop } from "./open-loop";
import { benchJobs } from "./jobs";
import { benchRegions } from "./regions";
import { firstVisitJs, lighthouseScores } from "./pages";
import { buildReference, startReference } from "./reference";
import { signInMany } from "./signin";
import { benchStreams } from "./streams";
import {
  CLEARED,
  ablationMarkdown,
  ablationTable,
  median,
  type AblationPage,
  type Piece,
} from "./ablation";

const LOTS = Number(process.env.BENCH_LOTS ?? 300_000);
const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
/** seconds each measured load runs (after its own warm-up) */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SECRET = `bench-${randomBytes(16).toString("hex")}`;
const DEPOSIT = "5000000000.00";
/** BENCH_ONLY=bids2,pages (say) runs only those parts, for a targeted run between full ones:
 * start, jobs, latency, bids1, mixed, bids2, pgbench, pages, js, lighthouse, browser, streams,
 * ablation, regions.
 * Unset: everything. */
const PARTS = [
  "start",
  "jobs",
  "latency",
  "bids1",
  "mixed",
  "bids2",
  "pgbench",
  "pages",
  "js",
  "lighthouse",
  "browser",
  "streams",
  "ablation",
  "regions",
];
const ONLY = process.env.BENCH_ONLY?.split(",").map((part) => part.trim());
const unknown = ONLY?.filter((part) => !PARTS.includes(part)) ?? [];
if (unknown.length) throw new Error(`BENCH_ONLY: no part named ${unknown.join(", ")}`);
const runs = (part: string) => !ONLY || ONLY.includes(part);
/** BENCH_FAIL_AT=part: the run fails as that part starts (the bench's own test, 2901). */
function checkpoint(part: string) {
  if (process.env.BENCH_FAIL_AT === part) throw new Error(`BENCH_FAIL_AT=${part}`);
}
const BID_PARTS = ["latency", "bids1", "mixed", "bids2"];
const bidsRun = BID_PARTS.some(runs);

const ms = (n: number) => `${n} ms`;
const cpus = os.cpus();

/** Peak resident memory of the server's processes together: sampled every 200 ms, or the sum of
 * their own high-water marks if that is higher (it can only overstate). */
function rssSampler(pid: number) {
  let peakKb = 0;
  const timer = setInterval(() => (peakKb = Math.max(peakKb, treeKb(pid, "VmRSS"))), 200);
  return {
    stop: () => clearInterval(timer),
    peakMb: () => Math.round(Math.max(peakKb, treeKb(pid, "VmHWM")) / 1024),
  };
}

const startLoad = os
  .loadavg()
  .map((n) => n.toFixed(2))
  .join(" ");
const target = resultsTarget();
runBench(
  {
    ...target,
    preamble: () => [
      `${cpus.length} cores (${cpus[0]?.model.trim()}), node ${process.version}, production build, ` +
        `its own PostgreSQL; ${LOTS.toLocaleString("en-US")} lots, ` +
        `${LISTINGS.toLocaleString("en-US")} listings; ${SECONDS} s per measured load after a ` +
        `warm-up${ONLY ? `; parts: ${ONLY.join(", ")}` : ""}. Load average at the start: ` +
        `${startLoad}.`,
    ],
  },
  main,
);

async function main(bench: Bench) {
  const row = bench.row.bind(bench);
  const log = bench.log.bind(bench);
  log(
    `machine: ${cpus.length} cores (${cpus[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GB, ` +
      `node ${process.version}, load average ${startLoad}`,
  );
  /** an app server the bench started: registered so that it is stopped whatever happens */
  const track = (label: string, app: AppProcess) => {
    bench.process(label, app.proc.pid);
    return bench.onStop(label, app.stop, () => app.proc.kill("SIGKILL"));
  };

  await ensureBuilt();
  const withReference = runs("pages") || runs("ablation");
  if (withReference) await buildReference();
  const cluster = await startThrowawayCluster("bench");
  bench.cluster("the bench's PostgreSQL", cluster);
  const pgPid = () => postmasterPid(cluster.dataDir);

  await createDatabase(cluster.urlFor("postgres"), "bidyard_bench");
  const databaseUrl = cluster.urlFor("bidyard_bench");
  process.env.DATABASE_URL = databaseUrl;
  await migrateDatabase(databaseUrl);
  const { seedDemoLots, seedScaleLots } = await import("../db/seeds/lots");
  const { seedBulkListings } = await import("../db/seeds/listings");
  const { sequelize } = await import("../app/models/db.server");
  let t0 = Date.now();
  await seedDemoLots();
  await seedScaleLots(LOTS);
  const lotsSeconds = (Date.now() - t0) / 1000;
  t0 = Date.now();
  await seedBulkListings(LISTINGS);
  await sequelize.close();
  log(
    `seeded ${LOTS.toLocaleString("en-US")} lots in ${lotsSeconds.toFixed(1)} s and ` +
      `${LISTINGS.toLocaleString("en-US")} listings in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  db.on("error", () => undefined); // idle clients see the cluster stop at the end
  bench.onStop("the bench's own database pool", () => db.end());
  await db.query("VACUUM ANALYZE");

  const port = await freePort();
  const base = `http://localhost:${port}`;
  const services = await startLocalServices({ appUrl: base, oidcPort: 0, mailCatcherPort: 0 });
  bench.onStop("the local OpenID issuer and mail catcher", () => services.stop());
  const { LOCAL_OIDC_CLIENT_ID, LOCAL_OIDC_CLIENT_SECRET, LOCAL_OIDC_HOST } =
    await import("../app/services/accounts/local-oidc");
  const appEnv = {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: SECRET,
    APP_URL: base,
    OIDC_ISSUER: `http://${LOCAL_OIDC_HOST}:${services.env.LOCAL_OIDC_PORT}`,
    OIDC_CLIENT_ID: LOCAL_OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET: LOCAL_OIDC_CLIENT_SECRET,
    PAYPAL_CLIENT_ID: "bench",
    PAYPAL_CLIENT_SECRET: "bench",
    // The limiter still runs on every bid (its counter is part of the cost measured); its
    // ceiling is raised because 50 bidders here bid far faster than people do.
    BID_RATE_LIMIT_PER_MINUTE: "1000000",
    // The sign-in bench gives each client its own address as Fly's proxy would.
    TRUST_PROXY: "fly",
    // Heap caps sized as on fly.toml's machine (docs/decisions/3005), not from this host's
    // memory: the memory rows measure the server as it will run.
    MACHINE_MEMORY_MB: String(flyMachine().memoryMb),
    // one server on this machine; the bench stores no files (docs/decisions/3105)
    FILE_STORAGE: "local",
  };

  // Production server start to first 200 (on the home page), three times, median.
  checkpoint("start");
  const starts: number[] = [];
  for (let i = 0; i < (runs("start") ? 3 : 0); i += 1) {
    const startPort = await freePort();
    const t = performance.now();
    const app = startApp({ ...appEnv, APP_URL: `http://localhost:${startPort}` }, startPort);
    const stop = track("a production server (start time)", app);
    await waitFor200(`http://localhost:${startPort}/`, app, 30_000, 5);
    starts.push((performance.now() - t) / 1000);
    await stop();
  }
  starts.sort((a, b) => a - b);
  if (starts.length) {
    row(
      "production server start to first 200",
      `${starts[1].toFixed(2)} s`,
      "≤ 1.5 s",
      starts[1] <= 1.5,
    );
  }

  const app: AppProcess = startApp(appEnv, port);
  track("the production server", app);
  await waitFor200(`${base}/healthz`, app, 30_000);

  // Sign-ins through the real flow (the local OpenID issuer), then KYC and deposits as an
  // admin and PayPal would leave them. The bid loads need 250 bidders; the pages one reader.
  t0 = Date.now();
  const count = bidsRun ? 251 : 3;
  const emails = Array.from({ length: count }, (_, i) => `bench-bidder-${i}@bidyard.test`);
  const cookies = await signInMany(base, emails);
  await db.query(
    `UPDATE users SET verified = true, deposit = $1 WHERE email LIKE 'bench-bidder-%'`,
    [DEPOSIT],
  );
  const { rows: users } = await db.query<{ id: string; email: string }>(
    `SELECT id, email FROM users WHERE email LIKE 'bench-bidder-%'`,
  );
  const userIds = emails.map((e) => users.find((u) => u.email === e)!.id);
  log(`${emails.length} bidders signed in through the issuer in ${Date.now() - t0} ms`);
  const reader = { cookie: cookies[count - 1] };

  // The queue on an idle server (docs/decisions/3567): a job worker beside this server, e-mails
  // caught by the local mail catcher, before any load.
  checkpoint("jobs");
  if (runs("jobs")) {
    const scenario = "the job queue on an idle server";
    if (!services.env.SMTP_URL || !services.env.MAIL_CATCHER_URL)
      row(scenario, "skipped: no local mail catcher (SMTP_URL set outside)", "p95 ≤ 2 s", null);
    else
      await benchJobs({
        bench,
        db,
        env: appEnv,
        base,
        cookies: [cookies[0], cookies[1]],
        smtpUrl: services.env.SMTP_URL,
        mailCatcherUrl: services.env.MAIL_CATCHER_URL,
      });
  }

  const benchLots: string[] = [];
  /** Fresh open lots; `overHttp` lots are the ones the invariants below check. */
  async function newLots(lotCount: number, overHttp = true) {
    const { rows: made } = await db.query<{ id: string }>(
      `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
         location_state, estimated_value, starts_at, ends_at)
       SELECT 'copart', 'B' || substr(md5(random()::text), 1, 12), 'BENCH00000000000', 2020,
              'Ford', 'F-150', 'Dallas', 'TX', 20000, now() - interval '1 hour',
              now() + interval '1 day'
         FROM generate_series(1, $1) RETURNING id`,
      [lotCount],
    );
    if (overHttp) benchLots.push(...made.map((r) => r.id));
    return made.map((r) => r.id);
  }

  /** Bids from `bidders` over fresh lots; each request raises its lot by $50. */
  function bidLoad(bidders: number, lotCount: number, lots: string[], offset: number) {
    const next = new Map(lots.map((id) => [id, 50]));
    return (i: number) => {
      const lotId = lots[i % lotCount];
      const amount = next.get(lotId)!;
      next.set(lotId, amount + 50);
      const proxy = i % 3 === 0;
      return {
        headers: { cookie: cookies[offset + (i % bidders)] },
        body: JSON.stringify({
          vehicleId: lotId,
          amount: String(amount),
          isProxyBid: proxy,
          ...(proxy ? { maxAmount: String(amount + 50 * (1 + (i % 7))) } : {}),
        }),
      };
    };
  }
  let accepted = 0;
  let bidServerErrors = 0;
  const placedIds: string[] = [];
  /** requests a load stopped waiting for at its end: the server may still have placed them */
  let cutOff = 0;
  const answered = (status: number, body: string) => {
    if (status === 201) placedIds.push((JSON.parse(body) as { bid: { id: string } }).bid.id);
  };
  async function bids(
    targetBase: string,
    bidders: number,
    lotCount: number,
    offset: number,
    seconds: number,
    rate?: number,
  ) {
    const lots = await newLots(lotCount);
    const result = await load({
      url: `${targetBase}/api/bids`,
      method: "POST",
      connections: bidders,
      seconds,
      rate,
      headers: { "content-type": "application/json", origin: targetBase },
      next: bidLoad(bidders, lotCount, lots, offset),
      answered,
    });
    accepted += result.ok;
    cutOff += bidders;
    bidServerErrors += result.serverErrors + result.errors;
    return result;
  }
  /** Bids at `rate` per second, evenly spaced, open loop (each sent at its instant). */
  async function evenBids(targetBase: string, rate: number, seconds: number) {
    const lots = await newLots(20);
    const result = await openLoop({
      url: `${targetBase}/api/bids`,
      method: "POST",
      rate,
      seconds,
      headers: { "content-type": "application/json", origin: targetBase },
      next: bidLoad(50, 20, lots, 0),
      answered,
    });
    accepted += result.ok;
    bidServerErrors += result.failed;
    return result;
  }
  const describe = (r: LoadResult) =>
    `${r.perSecond} bids/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, slowest ${ms(r.max)} (${r.ok} placed, ${r.refused} refused by the rules, ${r.serverErrors + r.errors} failed)`;

  // The database's ceilings for the same bid, without HTTP or the ORM, measured first: the HTTP
  // bid loads are offered at fractions of the first, and latency is compared with the second.
  // (their bids are not HTTP answers, so their lots stay out of the invariants' count of 201s)
  let raw = { perSecond: 0, p50: 0, p99: 0 };
  let single = { perSecond: 0, p50: 0, p99: 0 };
  if (bidsRun) {
    const rawLots = await newLots(20, false);
    const rawNext = new Map(rawLots.map((id) => [id, 50]));
    const nextRaw = (i: number) => {
      const lotId = rawLots[i % 20];
      const amount = rawNext.get(lotId)!;
      rawNext.set(lotId, amount + 50);
      return {
        lotId,
        userId: userIds[i % 50],
        amount: String(amount),
        max: String(i % 3 === 0 ? amount + 50 * (1 + (i % 7)) : amount),
        isProxy: i % 3 === 0,
      };
    };
    raw = await rawBidCeiling(databaseUrl, 10, SECONDS, nextRaw);
    row(
      "the same bid as raw SQL through pg (10 connections, no HTTP, no ORM)",
      `${raw.perSecond} tx/s, p50 ${ms(raw.p50)}, p99 ${ms(raw.p99)}`,
      "the bid ceiling",
      null,
    );
    single = await rawBidCeiling(databaseUrl, 1, Math.min(SECONDS, 5), nextRaw);
    row(
      "the same raw-SQL bid, one call at a time (1 connection)",
      `p50 ${ms(single.p50)}, p99 ${ms(single.p99)} (${single.perSecond} calls/s)`,
      "the latency yardstick",
      null,
    );
  }
  const ofRaw = (r: LoadResult) => `${(r.perSecond / raw.perSecond).toFixed(2)} × raw SQL`;
  /** paced loads count as met when they deliver what was offered (2% slack for the edges) */
  const delivered = (r: LoadResult, rate: number) => r.perSecond >= rate * 0.98;

  /** 50 bids/s evenly spaced against the single raw call's p50 (2905). */
  async function evenLatency(targetBase: string, label: string) {
    await evenBids(targetBase, 50, 2); // warm-up: connections open, code hot
    const even = await evenBids(targetBase, 50, SECONDS);
    const p50x = even.p50 / single.p50;
    const p99x = even.p99 / single.p50;
    row(
      `bid latency${label}: 50 bids/s evenly spaced (open loop, 50 bidders, 20 lots)`,
      `p50 ${ms(even.p50)} (${p50x.toFixed(1)} ×), p99 ${ms(even.p99)} (${p99x.toFixed(1)} ×) the ` +
        `single raw call's p50 of ${ms(single.p50)}; slowest ${ms(even.max)}; ${even.ok} placed, ` +
        `${even.refused} refused by the rules, ${even.failed} failed; client late by ${ms(even.lateMs)} at most`,
      "p50 ≤ 3 ×, p99 ≤ 10 × the raw call's p50",
      p50x <= 3 && p99x <= 10 && even.failed === 0,
    );
  }

  async function bidSuite(server: AppProcess, label: string) {
    const targetBase = server.url;
    const run = (bidders: number, lots: number, offset: number, seconds: number, rate?: number) =>
      bids(targetBase, bidders, lots, offset, seconds, rate);
    const rss = rssSampler(server.proc.pid!);
    await run(50, 20, 0, 3); // warm-up
    await evenLatency(targetBase, label);
    const manyRate = Math.round(raw.perSecond * 0.5);
    const many = await run(50, 20, 0, SECONDS, manyRate);
    row(
      `the same${label}, offered at 0.5 × raw SQL (${manyRate}/s, autocannon's bursts)`,
      describe(many),
      `≥ ${manyRate} bids/s`,
      delivered(many, manyRate),
    );
    const manyMax = await run(50, 20, 0, SECONDS);
    row(
      `the same${label}, as fast as answered (saturation)`,
      `${describe(manyMax)}; ${ofRaw(manyMax)}`,
      "reported",
      null,
    );
    const hotRate = Math.round(raw.perSecond * 0.3);
    const hot = await run(200, 1, 50, SECONDS, hotRate);
    row(
      `one hot lot${label}: 200 bidders at once, offered at 0.3 × raw SQL (${hotRate}/s)`,
      describe(hot),
      `≥ ${hotRate} bids/s, no answer over 1 s`,
      delivered(hot, hotRate) && hot.max <= 1000,
    );
    const hotMax = await run(200, 1, 50, SECONDS);
    row(
      `the same${label}, as fast as answered (saturation)`,
      `${describe(hotMax)}; ${ofRaw(hotMax)}`,
      "reported",
      null,
    );
    rss.stop();
    row(
      `server memory under the bid load${label} (peak RSS, all its processes)`,
      `${rss.peakMb()} MB`,
      "≤ 300 MB",
      rss.peakMb() <= 300,
    );
    return manyMax;
  }

  checkpoint("latency");
  if (runs("latency") && !runs("bids1")) await evenLatency(base, "");
  checkpoint("bids1");
  const oneWorker = runs("bids1") ? await bidSuite(app, "") : null;

  // The auction's last minute: watchers refreshing the lists while bidders bid (2906).
  checkpoint("mixed");
  if (runs("mixed")) await mixedLoad();
  async function mixedLoad() {
    let cursor: string | null = null;
    const page10 = await (async () => {
      for (let page = 1; page < 10; page += 1) {
        const response: Response = await fetch(
          `${base}/api/auctions${cursor ? `?cursor=${cursor}` : ""}`,
          { headers: reader },
        );
        cursor = ((await response.json()) as { nextCursor: string | null }).nextCursor;
      }
      return `/auctions?cursor=${encodeURIComponent(cursor!)}`;
    })();
    const browsing = [
      "/auctions",
      "/community-vehicles",
      "/auctions?make=Ford&location=TX",
      "/community-vehicles?make=Toyota&priceMax=30000",
      page10,
      "/community-vehicles?make=Honda",
    ];
    const crowd = (seconds: number) =>
      load({
        url: `${base}/auctions`,
        connections: 20,
        seconds,
        headers: reader,
        next: (i) => ({ path: browsing[i % browsing.length] }),
      });
    await bids(base, 50, 20, 0, 2); // warm-up
    await crowd(2);
    const before = await bids(base, 50, 20, 0, SECONDS);
    const [mixed, pages] = await Promise.all([bids(base, 50, 20, 0, SECONDS), crowd(SECONDS)]);
    const after = await bids(base, 50, 20, 0, SECONDS);
    const alone = (before.perSecond + after.perSecond) / 2;
    const ratio = mixed.perSecond / alone;
    row(
      "bids while 20 clients browse /auctions and /community-vehicles (50 bidders, 20 lots, as fast as answered)",
      `${mixed.perSecond} bids/s (p50 ${ms(mixed.p50)}, p99 ${ms(mixed.p99)}, slowest ${ms(mixed.max)}) ` +
        `against ${Math.round(alone)} alone (mean of before and after) = ${ratio.toFixed(2)} ×; ` +
        `the crowd got ${pages.perSecond} pages/s (p50 ${ms(pages.p50)}, p95 ${ms(pages.p95)}, ` +
        `${pages.requests - pages.ok} not 200)`,
      "≥ 0.7 × bids/s alone, p99 ≤ 250 ms",
      ratio >= 0.7 && mixed.p99 <= 250 && mixed.serverErrors + mixed.errors === 0,
    );
  }

  // The same server with one worker process per core (WEB_CONCURRENCY=2), as on a 2-core machine.
  checkpoint("bids2");
  let twoWorkersMax: LoadResult | null = null;
  if (runs("bids2")) {
    const twoPort = await freePort();
    const twoWorkers = startApp(
      { ...appEnv, APP_URL: `http://localhost:${twoPort}`, WEB_CONCURRENCY: "2" },
      twoPort,
    );
    const stop = track("the production server, 2 workers", twoWorkers);
    await waitFor200(`${twoWorkers.url}/healthz`, twoWorkers, 30_000);
    twoWorkersMax = await bidSuite(twoWorkers, " (2 worker processes)");
    await stop();
  }
  const manyMax = [oneWorker, twoWorkersMax]
    .filter((r): r is LoadResult => r !== null)
    .sort((a, b) => b.perSecond - a.perSecond)[0];
  if (manyMax) {
    const ratio = manyMax.perSecond / raw.perSecond;
    row(
      "HTTP bids (50 bidders, 20 lots, best saturation) against the raw-SQL bid",
      `${ratio.toFixed(2)} × (${manyMax.perSecond} of ${raw.perSecond} bids/s)`,
      "≥ 0.5 ×",
      ratio >= 0.5,
    );
  }

  // Invariants over every lot the benchmark bid on over HTTP.
  if (benchLots.length) await invariants();
  async function invariants() {
    const {
      rows: [check],
    } = await db.query(
      `WITH per_lot AS (
       SELECT l.id, l.bid_count, l.current_bid, l.high_bidder_id, l.high_max,
              (SELECT count(*) FROM bids b WHERE b.lot_id = l.id AND NOT b.max_raise) AS rows,
              (SELECT max(amount) FROM bids b WHERE b.lot_id = l.id AND NOT b.max_raise)
                AS top,
              (SELECT row(b.user_id, b.max_amount)::text FROM bids b
                WHERE b.lot_id = l.id AND NOT b.automatic
                ORDER BY b.max_amount DESC, b.id ASC LIMIT 1) AS leader
         FROM lots l WHERE l.id = ANY($1::bigint[]))
     SELECT count(*) FILTER (WHERE bid_count <> rows) AS count_mismatch,
            count(*) FILTER (WHERE rows > 0 AND current_bid <> top) AS price_mismatch,
            count(*) FILTER (WHERE rows > 0 AND leader <> row(high_bidder_id, high_max)::text)
              AS leader_mismatch,
            (SELECT count(*) FROM bids WHERE lot_id = ANY($1::bigint[]) AND NOT automatic)
              AS typed_bids
       FROM per_lot`,
      [benchLots],
    );
    const {
      rows: [found],
    } = await db.query<{ found: string }>(
      "SELECT count(*) AS found FROM bids WHERE id = ANY($1::bigint[]) AND NOT automatic",
      [placedIds],
    );
    // Every 201 is a typed bid row; rows beyond them can only be requests the load generator
    // stopped waiting for at the end of a run (at most one per connection).
    const typed = Number(check.typed_bids);
    const invariantsHold =
      Number(check.count_mismatch) === 0 &&
      Number(check.price_mismatch) === 0 &&
      Number(check.leader_mismatch) === 0 &&
      Number(found.found) === accepted &&
      placedIds.length === accepted &&
      typed >= accepted &&
      typed - accepted <= cutOff &&
      bidServerErrors === 0;
    row(
      "bid invariants afterwards",
      `all ${accepted} bids answered 201 found as typed bid rows (${typed} rows; ${typed - accepted} ` +
        `from requests cut off at the ends of runs, at most ${cutOff}); counters, prices and ` +
        `leaders off on ${check.count_mismatch}/${check.price_mismatch}/${check.leader_mismatch} ` +
        `lots; ${bidServerErrors} failed requests`,
      "all hold, nothing failed",
      invariantsHold,
    );
  }

  checkpoint("pgbench");
  if (runs("pgbench")) {
    await createDatabase(cluster.urlFor("postgres"), "pgbench");
    const tps = await pgbenchTps(cluster.urlFor("pgbench"), 10, SECONDS, (pid) =>
      bench.process("pgbench", pid),
    );
    row(
      "pgbench TPC-B-like (scale 10, 10 clients)",
      tps === null
        ? "pgbench is not installed"
        : `${tps} tps${raw.perSecond ? ` (raw bid is ${(raw.perSecond / tps).toFixed(2)} × this)` : ""}`,
      "reported",
      null,
    );
  }

  // Pages, against the reference app's same pages in the same run (2902, 2903): each pair runs
  // interleaved (ours, reference, reference, ours: half the seconds each), and besides requests
  // per second each run reads the CPU the server's processes and PostgreSQL's used, per request.
  checkpoint("pages");
  if (runs("pages")) await pageRows();
  async function pageRows() {
    const refPort = await freePort();
    const reference = startReference(
      { DATABASE_URL: databaseUrl, SESSION_SECRET: SECRET },
      refPort,
    );
    const stopReference = track("the reference app", reference);
    await waitFor200(`${reference.url}/healthz`, reference, 30_000);

    let cursor: string | null = null;
    let page50 = "/auctions";
    for (let page = 1; page < 50; page += 1) {
      const response: Response = await fetch(
        `${base}/api/auctions${cursor ? `?cursor=${cursor}` : ""}`,
        { headers: reader },
      );
      cursor = ((await response.json()) as { nextCursor: string | null }).nextCursor;
      if (!cursor) break;
      page50 = `/auctions?cursor=${encodeURIComponent(cursor)}`;
    }
    const hello = await helloCeiling(await freePort(), 20, SECONDS, (pid) =>
      bench.process("bare node:http server", pid),
    );
    row(
      "bare node:http hello server (20 connections)",
      `${hello.perSecond} req/s`,
      "the HTTP ceiling",
      null,
    );

    type Measured = {
      requests: number;
      ok: number;
      perSecond: number;
      p50: number;
      p95: number;
      nodeMs: number;
      pgMs: number;
    };
    const once = async (server: AppProcess, path: string, seconds: number, headers?: object) => {
      const { result, used } = await cpuDuring({ node: server.proc.pid, pg: pgPid() }, () =>
        load({ url: `${server.url}${path}`, connections: 20, seconds, headers: headers as never }),
      );
      return { result, used };
    };
    /** ours and the reference's page, interleaved: ABBA, half the seconds each */
    async function pair(
      ours: string,
      theirs: string,
      headers?: Record<string, string>,
    ): Promise<[Measured, Measured]> {
      await once(app, ours, 2, headers);
      await once(reference, theirs, 2, headers);
      const half = Math.max(1, SECONDS / 2);
      type Run = Awaited<ReturnType<typeof once>>;
      const runsOf: { ours: Run[]; ref: Run[] } = { ours: [], ref: [] };
      runsOf.ours.push(await once(app, ours, half, headers));
      runsOf.ref.push(await once(reference, theirs, half, headers));
      runsOf.ref.push(await once(reference, theirs, half, headers));
      runsOf.ours.push(await once(app, ours, half, headers));
      const merge = (list: Run[]): Measured => {
        const times = list.flatMap((r) => r.result.times).sort((a, b) => a - b);
        const requests = times.length;
        const ok = list.reduce((sum, r) => sum + r.result.ok, 0);
        const node = list.reduce((sum, r) => sum + r.used.node, 0);
        const pgUsed = list.reduce((sum, r) => sum + r.used.pg, 0);
        return {
          requests,
          ok,
          perSecond: Math.round(requests / (half * list.length)),
          p50: Math.round(percentile(times, 50) * 10) / 10,
          p95: Math.round(percentile(times, 95) * 10) / 10,
          nodeMs: node / requests,
          pgMs: pgUsed / requests,
        };
      };
      return [merge(runsOf.ours), merge(runsOf.ref)];
    }
    const f = (n: number) => n.toFixed(2);
    const [health, refHealth] = await pair("/healthz", "/healthz");
    row(
      "/healthz, a resource route with one query (20 concurrent)",
      `p50 ${ms(health.p50)}, p95 ${ms(health.p95)}, ${health.perSecond} req/s ` +
        `(${(health.perSecond / hello.perSecond).toFixed(3)} × bare node:http); Node CPU ` +
        `${f(health.nodeMs)} ms/request, PostgreSQL ${f(health.pgMs)}; the reference's: ` +
        `${refHealth.perSecond} req/s, ${f(refHealth.nodeMs)} + ${f(refHealth.pgMs)} ms/request`,
      "the app's ceiling",
      null,
    );
    const describePage = (ours: Measured, ref: Measured) =>
      `p50 ${ms(ours.p50)}, p95 ${ms(ours.p95)}, ${ours.perSecond} req/s ` +
      `(${(ours.perSecond / health.perSecond).toFixed(2)} × /healthz's); CPU per request: Node ` +
      `${f(ours.nodeMs)} ms (${(health.nodeMs / ours.nodeMs).toFixed(2)} × /healthz's rate), ` +
      `PostgreSQL ${f(ours.pgMs)} ms; the reference's: ${ref.perSecond} req/s, Node ` +
      `${f(ref.nodeMs)} + PostgreSQL ${f(ref.pgMs)} ms; ours / reference: Node ` +
      `${(ours.nodeMs / ref.nodeMs).toFixed(2)} ×, Node + PostgreSQL ` +
      `${((ours.nodeMs + ours.pgMs) / (ref.nodeMs + ref.pgMs)).toFixed(2)} ×` +
      (ours.ok === ours.requests ? "" : `; ${ours.requests - ours.ok} not 200`);

    const [notFound, refNotFound] = await pair("/no-such-page-here", "/no-such-page-here", reader);
    const notFoundRatio = notFound.nodeMs / refNotFound.nodeMs;
    row(
      "the 404 page, the root layout and no data of its own (20 concurrent, signed in)",
      describePage({ ...notFound, ok: notFound.requests }, refNotFound),
      "server CPU per request ≤ 1.0 × the reference's",
      notFoundRatio <= 1.0,
    );
    const [notFoundOut, refNotFoundOut] = await pair("/no-such-page-here", "/no-such-page-here");
    row(
      "the 404 page, signed out (20 concurrent)",
      describePage({ ...notFoundOut, ok: notFoundOut.requests }, refNotFoundOut),
      "reported",
      null,
    );
    const lists: Array<[string, string, string, number]> = [
      ["/auctions over 300,000 lots: first page", "/auctions", "/auctions", 1.0],
      [
        "/auctions: filtered (make and state)",
        "/auctions?make=Ford&location=TX",
        "/auctions?make=Ford&location=TX",
        1.0,
      ],
      ["/auctions: page 50 by keyset", page50, page50, 1.0],
      [
        "/community-vehicles over 100,000 listings: filtered (against the reference's filtered list)",
        "/community-vehicles?make=Toyota&priceMax=30000",
        "/auctions?make=Ford&location=TX",
        1.2,
      ],
    ];
    let worstAuctionsPg = 0;
    for (const [name, ours, theirs, goal] of lists) {
      const [mine, ref] = await pair(ours, theirs, reader);
      const ratio = (mine.nodeMs + mine.pgMs) / (ref.nodeMs + ref.pgMs);
      if (ours.startsWith("/auctions")) worstAuctionsPg = Math.max(worstAuctionsPg, mine.pgMs);
      row(
        `${name} (20 concurrent, signed in)`,
        describePage(mine, ref),
        `CPU per request, Node + PostgreSQL, ≤ ${goal.toFixed(1)} × the reference list's`,
        ratio <= goal && mine.ok === mine.requests,
      );
    }
    row(
      "database time per /auctions request under 20 clients (PostgreSQL CPU, worst of the three rows)",
      `${f(worstAuctionsPg)} ms`,
      "≤ 2 ms",
      worstAuctionsPg <= 2,
    );
    await stopReference();
  }

  checkpoint("js");
  for (const [path, budget] of !runs("js")
    ? []
    : ([
        ["/", 110],
        ["/auctions", 140],
        ["/community-vehicles", 140],
        ["/deposit", 140],
      ] as const)) {
    // the home page as a visitor; the others need a signed-in bidder
    const js = await firstVisitJs(base, path, path === "/" ? undefined : reader.cookie);
    row(
      `JavaScript a first visit to ${path} downloads`,
      `${js.kbGzip} KB gzipped (${js.files} files, ${js.kbRaw} KB raw)`,
      `≤ ${budget} KB`,
      js.kbGzip <= budget,
    );
  }

  // Lighthouse: the home page as a visitor sees it, the auction list as a signed-in bidder.
  const chromium = chromiumPath();
  checkpoint("lighthouse");
  if (runs("lighthouse")) {
    const pages = [{ url: `${base}/` }, { url: `${base}/auctions`, cookie: reader.cookie }];
    if (!chromium.found) {
      for (const { url } of pages) {
        row(
          `Lighthouse (mobile) ${new URL(url).pathname}`,
          `skipped: no Chromium at ${chromium.at}`,
          "≥ 95, ≥ 95",
          null,
        );
      }
    } else {
      const scores = await lighthouseScores(pages, chromium.at, (pid) =>
        bench.process("Chromium (Lighthouse)", pid),
      );
      for (const [url, s] of Object.entries(scores)) {
        row(
          `Lighthouse (mobile) ${new URL(url).pathname}`,
          `performance ${s.performance}, accessibility ${s.accessibility} (${s.metrics})`,
          "≥ 95, ≥ 95",
          s.performance >= 95 && s.accessibility >= 95,
        );
      }
    }
  }

  // A bid seen in another browser (2906): two pages, the live stream between them.
  checkpoint("browser");
  if (runs("browser")) {
    const scenario =
      "a bid seen in another browser: two Chromium pages on one lot, 20 bids in turn";
    if (!chromium.found) {
      row(scenario, `skipped: no Chromium at ${chromium.at}`, "p95 ≤ 250 ms", null);
    } else {
      const [lotId] = await newLots(1, false);
      const seen = await bidSeenElsewhere({
        base,
        chromiumPath: chromium.at,
        cookies: [cookies[0], cookies[1]],
        lotId,
        bids: 20,
        started: (pid, stop) => {
          bench.process("Chromium (two pages)", pid);
          bench.onStop("Chromium (two pages)", stop);
        },
      });
      row(
        scenario,
        `click to the other page's new price: p50 ${ms(seen.p50)}, p95 ${ms(seen.p95)}, slowest ${ms(seen.max)}`,
        "p95 ≤ 250 ms",
        seen.p95 <= 250,
      );
    }
  }

  // The ablation table (docs/decisions/3401): each piece's price on each page, and the goals as
  // ratios to the reference in the same rounds.
  checkpoint("ablation");
  if (runs("ablation")) {
    const {
      rows: [lot],
    } = await db.query<{ id: string }>(
      "SELECT id FROM lots WHERE status = 'active' ORDER BY ends_at DESC LIMIT 1",
    );
    const listPieces = ["session", "root-reads", "filter-options", "cards"] as const;
    const pages: Array<AblationPage & { goal: number | null }> = [
      {
        label: "/healthz",
        ours: "/healthz",
        reference: "/healthz",
        pieces: [],
        status: 200,
        goal: 1.2,
      },
      {
        label: "404, signed out",
        ours: "/no-such-page-here",
        reference: "/no-such-page-here",
        pieces: ["root-reads"],
        status: 404,
        goal: 1.2,
      },
      {
        label: "404, signed in",
        ours: "/no-such-page-here",
        reference: "/no-such-page-here",
        headers: reader,
        pieces: ["session", "root-reads"],
        status: 404,
        goal: 1.2,
      },
      {
        label: "/auctions, first page",
        ours: "/auctions",
        reference: "/auctions",
        headers: reader,
        pieces: [...listPieces],
        status: 200,
        goal: 1.3,
      },
      {
        label: "/auctions, filtered",
        ours: "/auctions?make=Ford&location=TX",
        reference: "/auctions?make=Ford&location=TX",
        headers: reader,
        pieces: [...listPieces],
        status: 200,
        goal: 1.3,
      },
      {
        label: "/community-vehicles, filtered (against the reference's filtered list)",
        ours: "/community-vehicles?make=Toyota&priceMax=30000",
        reference: "/auctions?make=Ford&location=TX",
        headers: reader,
        pieces: [...listPieces],
        status: 200,
        goal: 1.5,
      },
      {
        label: "the lot page",
        ours: `/auctions/${lot.id}`,
        reference: `/auctions/${lot.id}`,
        headers: reader,
        pieces: ["session", "root-reads"],
        status: 200,
        goal: null,
      },
    ];
    // BENCH_ABLATION_PIECES (comma-separated, or "none") and BENCH_ABLATION_PAGES (a pattern on
    // the labels) narrow a run to what a change touches; the full table is the default
    const only = process.env.BENCH_ABLATION_PAGES;
    const chosen = only ? pages.filter((page) => new RegExp(only).test(page.label)) : pages;
    const piecesWanted = process.env.BENCH_ABLATION_PIECES;
    const pieces =
      piecesWanted === undefined
        ? undefined
        : (piecesWanted.split(",").filter((p) => p && p !== "none") as Piece[]);
    // The goal rows: the reference and ours whole alone, in long rounds (BENCH_GOAL_ROUNDS,
    // BENCH_GOAL_SECONDS). In 3-second rounds the 404 pages' ratio moved by a third from run to run
    // and with the rounds' length itself (docs/decisions/3412); the pieces' prices are differences
    // within a round and keep the short rounds below.
    const goals = await ablationTable({
      env: appEnv,
      pages: chosen,
      pieces: [],
      clearedReference: true,
      pgPid,
      rounds: Number(process.env.BENCH_GOAL_ROUNDS ?? 5),
      seconds: Number(process.env.BENCH_GOAL_SECONDS ?? 10),
      warm: Number(process.env.BENCH_GOAL_WARM ?? 1),
      track,
      log,
    });
    for (const page of chosen) {
      const node = median(goals.node.whole[page.label]);
      const pgMs = median(goals.pg.whole[page.label]);
      const refNode = median(goals.node.reference[page.label]);
      const refPg = median(goals.pg.reference[page.label]);
      const ratio = (node + pgMs) / (refNode + refPg);
      row(
        `ablation: ${page.label}, CPU per request against the reference's in the same rounds`,
        `${node.toFixed(2)} + ${pgMs.toFixed(2)} ms against ${refNode.toFixed(2)} + ` +
          `${refPg.toFixed(2)} ms = ${ratio.toFixed(2)} × (Node alone ${(node / refNode).toFixed(2)} ×)`,
        page.goal === null ? "reported" : `Node + PostgreSQL ≤ ${page.goal.toFixed(1)} ×`,
        page.goal === null ? null : ratio <= page.goal,
      );
      // the same page against a reference that clears its abort timer as ours does (3412)
      const clearedNode = median(goals.node[CLEARED][page.label]);
      const clearedPg = median(goals.pg[CLEARED][page.label]);
      row(
        `ablation: ${page.label}, against the reference with its abort timer cleared`,
        `${node.toFixed(2)} + ${pgMs.toFixed(2)} ms against ${clearedNode.toFixed(2)} + ` +
          `${clearedPg.toFixed(2)} ms = ${((node + pgMs) / (clearedNode + clearedPg)).toFixed(2)} ×`,
        "reported",
        null,
      );
    }
    bench.section(
      "Ablation: the goal pages, ours whole against the reference",
      ablationMarkdown(goals),
    );
    if (pieces === undefined || pieces.length > 0) {
      const table = await ablationTable({
        env: appEnv,
        pages: chosen,
        pieces,
        pgPid,
        rounds: Number(process.env.BENCH_ABLATION_ROUNDS ?? 3),
        seconds: Number(process.env.BENCH_ABLATION_SECONDS ?? 3),
        warm: 1,
        track,
        log,
      });
      bench.section(
        "Ablation: each piece's price in ms of CPU per request",
        ablationMarkdown(table),
      );
    }
  }

  // live streams: on a server and database of their own (docs/decisions/1801)
  checkpoint("streams");
  if (runs("streams")) await benchStreams(bench);

  // a far buyer served in their own region: two regions of their own (docs/decisions/3702)
  checkpoint("regions");
  if (runs("regions")) await benchRegions(bench);
}
