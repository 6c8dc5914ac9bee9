// npm run soak: SOAK_MINUTES (default 10) of mixed traffic against the production build on its own
// throwaway PostgreSQL cluster and seeded data, with the auction closer and housekeeping running.
// At the end: no 5xx, memory flat after the warm-up, every data invariant true (else exit 1).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { ensureBuilt, startApp, waitFor200, type AppProcess } from "../tests/support/app-process";
import { freePort } from "../tests/support/cluster";
import { Traffic } from "./http";
import { checkInvariants, type Check } from "./invariants";
import { processTree } from "../tests/support/process-memory";
import { judgeSeries, startSampler } from "./memory";
import {
  bid,
  browse,
  deposit,
  haulJob,
  newLedger,
  notifications,
  payInvoice,
  postListing,
  serviceOrder,
  shipIt,
  type World,
} from "./scenarios";
import {
  createCast,
  createHotLots,
  createWonPurchases,
  loadCatalog,
  seed,
  startDatabase,
} from "./setup";

const SECRET = "soak-session-secret-0123456789abcdefghij";
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const RATE = Number(process.env.SOAK_RATE ?? 1); // multiplies every scenario's rate
const LOTS = Number(process.env.SOAK_LOTS ?? 20_000);
const LISTINGS = Number(process.env.SOAK_LISTINGS ?? 5_000);
const MAX_IN_FLIGHT = 120;
const FORCE_GC = process.env.SOAK_FORCE_GC !== "0";
/** What "flat" allows, last quarter after the warm-up against the first. */
const RSS_BOUND = { maxGrowthMb: 30, maxGrowthPct: 15 };
const HEAP_BOUND = { maxGrowthMb: 10, maxGrowthPct: 20 };

const log = (line: string) =>
  console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Visits started per second, per scenario (about 30 requests/s in all at SOAK_RATE=1). */
const SCHEDULE: Array<{ name: string; perSecond: number; visit: (w: World) => Promise<unknown> }> =
  [
    { name: "browse (anonymous)", perSecond: 6, visit: (w) => browse(w, null) },
    {
      name: "browse (signed in)",
      perSecond: 4,
      visit: (w) => {
        const people = [...w.cast.bidders, ...w.cast.onlookers, ...w.cast.sellers];
        return browse(w, people[Math.floor(Math.random() * people.length)]);
      },
    },
    { name: "bid", perSecond: 10, visit: bid },
    { name: "deposit", perSecond: 0.3, visit: deposit },
    { name: "post listing", perSecond: 0.5, visit: postListing },
    { name: "service orders", perSecond: 0.2, visit: serviceOrder },
    { name: "notifications", perSecond: 1, visit: notifications },
    // after the hammer: the buyers' invoices, their transport, the providers' jobs
    { name: "pay invoice", perSecond: 0.3, visit: payInvoice },
    { name: "ship it", perSecond: 0.25, visit: shipIt },
    { name: "haul (provider)", perSecond: 0.3, visit: haulJob },
  ];

async function main() {
  if (!(MINUTES > 0)) throw new Error("SOAK_MINUTES must be a positive number");
  const runMs = Math.round(MINUTES * 60_000);
  log(`building the production app`);
  await ensureBuilt();
  const { cluster, url } = await startDatabase(log);
  const uploads = await mkdtemp(path.join(os.tmpdir(), "bidyard-soak-uploads-"));
  let app: AppProcess | undefined;
  const db = new pg.Pool({ connectionString: url, max: 4 });
  db.on("error", () => undefined); // an idle client cut off when the cluster stops at the end
  try {
    await seed(url, LOTS, LISTINGS, log);
    const cast = await createCast(db, SECRET, {
      bidders: 40,
      buyers: 10,
      onlookers: 8,
      sellers: 40,
      affiliates: 8,
    });

    const port = await freePort();
    const base = `http://localhost:${port}`;
    app = startApp(
      {
        NODE_ENV: "production",
        DATABASE_URL: url,
        SESSION_SECRET: SECRET,
        APP_URL: base,
        OIDC_ISSUER: "https://id.bidyard.example",
        OIDC_CLIENT_ID: "bidyard",
        OIDC_CLIENT_SECRET: "soak",
        // no PayPal settings: the TEST MODE gateway, allowed in production for this run
        ALLOW_TEST_PAYMENTS: "true",
        UPLOADS_DIR: uploads,
        // AUCTION_CLOSER and HOUSEKEEPING left unset: both loops run during the soak; the
        // demo scheduler (on for staging-like runs) stays off, so the lots are the soak's own
        DEMO_AUCTIONS: "off",
        ...(process.env.WEB_CONCURRENCY ? { WEB_CONCURRENCY: process.env.WEB_CONCURRENCY } : {}),
        // a full GC every few seconds and a line with the heap it leaves (gc-probe.cjs)
        ...(FORCE_GC
          ? {
              NODE_OPTIONS: `--expose-gc --require ${fileURLToPath(new URL("./gc-probe.cjs", import.meta.url))}`,
            }
          : {}),
      },
      port,
    );
    const pid = app.proc.pid!;
    await waitFor200(`${base}/healthz`, app, 60_000);
    log(`production server pid ${pid} on ${base}`);

    const world: World = {
      http: new Traffic(base),
      cast,
      catalog: await loadCatalog(db),
      hot: [],
      ledger: newLedger(),
      ownListings: new Map(),
      won: [],
      jobs: [],
    };
    // every bidder funds a deposit through the test gateway before the clock starts
    await Promise.all(
      cast.bidders.map(async (bidder) => {
        const amount = String(10_000 + 1_000 * Math.floor(Math.random() * 30));
        await deposit(world, { user: bidder, amount });
      }),
    );
    log(`${world.ledger.depositsConfirmed.size} of ${cast.bidders.length} bidders funded`);
    // each buyer won two lots: a deposit that covers both hammers (their holds), with a slack
    // that sometimes covers the fees too and sometimes leaves a part for the gateway
    const wins = cast.buyers.map((buyer) => {
      const hammers = [0, 1].map(() => 600 + 100 * Math.floor(Math.random() * 15));
      const slack = [0, 400, 1_500, 5_000][Math.floor(Math.random() * 4)];
      return { buyer, hammers, deposit: hammers[0] + hammers[1] + slack };
    });
    await Promise.all(
      wins.map((w) => deposit(world, { user: w.buyer, amount: String(w.deposit) })),
    );
    world.won = await createWonPurchases(
      db,
      wins.filter((w) => world.ledger.depositsConfirmed.has(w.buyer.id)),
    );
    log(`${world.won.length} won, unpaid purchases invoiced by the closer for the buyers`);
    // the counts below are the soak's own traffic, not the funding above
    world.http = new Traffic(base);
    const http = world.http;

    const soakStartedAt = new Date();
    world.hot = await createHotLots(db, runMs, 24, 8);
    log(
      `soak: ${MINUTES} min, ${SCHEDULE.reduce((a, s) => a + s.perSecond * RATE, 0).toFixed(1)} visits/s; ` +
        `${world.hot.length} hot lots (24 end during the run)`,
    );
    const sampler = startSampler(app.proc, 2_000);
    const loadAtStart = os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" ");
    const started = Date.now();
    const deadline = started + runMs;
    const running = new Set<Promise<unknown>>();
    let skipped = 0;
    let crashed = false;
    app.proc.once("exit", () => (crashed = true));

    const loops = SCHEDULE.map(async (scenario) => {
      const rate = scenario.perSecond * RATE;
      if (rate <= 0) return;
      while (!crashed) {
        // Poisson arrivals: exponential gaps around the scenario's mean rate
        await sleep((-Math.log(1 - Math.random()) * 1000) / rate);
        if (Date.now() >= deadline || crashed) break;
        if (running.size >= MAX_IN_FLIGHT) {
          skipped += 1;
          continue;
        }
        const visit = scenario.visit(world).catch((error: unknown) => {
          http.failures.push(`${scenario.name} threw: ${(error as Error).stack ?? error}`);
        });
        running.add(visit);
        void visit.finally(() => running.delete(visit));
      }
    });
    const progress = setInterval(() => {
      const t = http.totals();
      const rss = sampler.rss[sampler.rss.length - 1]?.mb ?? 0;
      log(
        `${Math.round((Date.now() - started) / 1000)} s: ${t.requests} requests ` +
          `(${t.s5xx} 5xx, ${t.errors} errors), ${running.size} visits in flight, RSS ${rss.toFixed(0)} MB`,
      );
    }, 30_000);
    await Promise.all(loops);
    await Promise.allSettled([...running]);
    clearInterval(progress);
    const trafficMs = Date.now() - started;
    sampler.stop();
    // the closer runs every 5 s: give it one more turn for lots that ended at the very end
    await sleep(7_000);
    const checks: Check[] = await checkInvariants(db, world.ledger, soakStartedAt, {
      // long enough for hot lots to draw bids before their last minutes, then close sold
      expectSold: MINUTES >= 5,
    });

    // ---- the report ------------------------------------------------------------------------
    const totals = http.totals();
    console.log(`\nBidYard soak: ${MINUTES} min of mixed traffic against the production build`);
    console.log(
      `  machine: ${os.cpus().length} CPUs, load average at start ${loadAtStart}, at end ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(" ")}`,
    );
    console.log(
      `  ${totals.requests.toLocaleString("en-US")} requests in ${(trafficMs / 1000).toFixed(0)} s ` +
        `(${((totals.requests * 1000) / trafficMs).toFixed(1)} req/s); ${skipped} visits skipped at the in-flight cap`,
    );
    console.log("\nRequests by kind");
    const kindWidth = 22;
    console.log(Traffic.header("kind", kindWidth));
    for (const [kind, tally] of [...http.byKind].sort())
      console.log(Traffic.line(kind, tally, kindWidth));
    console.log(Traffic.line("all", totals, kindWidth));

    console.log("\nRequests by route");
    const routeWidth = 44;
    console.log(Traffic.header("route", routeWidth));
    for (const [route, tally] of [...http.byRoute].sort((a, b) => b[1].requests - a[1].requests))
      console.log(Traffic.line(route, tally, routeWidth));

    const { ledger } = world;
    console.log("\nWhat happened");
    console.log(
      `  bids: ${ledger.bids.accepted} accepted (JSON); refused: ` +
        [...ledger.bids.refused]
          .sort((a, b) => b[1] - a[1])
          .map(([k, n]) => `${k} ×${n}`)
          .join(", "),
    );
    console.log(
      `  deposits confirmed: ${[...ledger.depositsConfirmed.values()].reduce((a, b) => a + b, 0)}; ` +
        `refunds issued ${ledger.refunds.issued}, refused ${[...ledger.refunds.refused].map(([k, n]) => `${k} ×${n}`).join(", ") || 0}`,
    );
    console.log(
      `  listings posted: ${[...ledger.listingsPosted.values()].reduce((a, b) => a + b, 0)}, ` +
        `refused by the allowance: ${ledger.listingRefusals}, deleted: ${ledger.listingsDeleted}, trials started: ${ledger.trialsStarted}`,
    );
    console.log(
      `  service orders: ${ledger.ordersCreated.length} created, ` +
        `${[...ledger.claimWins.values()].filter((w) => w.length > 0).length} claimed`,
    );

    const { transport } = ledger;
    const refusals = (map: Map<string, number>) =>
      [...map].map(([k, n]) => `${k} ×${n}`).join(", ") || "none";
    console.log(
      `  invoices: ${ledger.purchasesPaid.size} of ${world.won.length} paid ` +
        `(${ledger.purchasePayments.viaDeposit} by the deposit alone, ` +
        `${ledger.purchasePayments.viaGateway} with a gateway part); refused: ${refusals(ledger.purchasePayments.refused)}`,
    );
    console.log(
      `  transport: ${transport.requested.length} requested, ${transport.paid.size} paid, ` +
        `${world.jobs.filter((j) => j.claimedBy).length} claimed, ${transport.completed.length} completed; ` +
        `refused: ${refusals(transport.refused)}`,
    );

    const memory = [judgeSeries("RSS", sampler.rss, trafficMs, RSS_BOUND)];
    if (FORCE_GC) memory.push(judgeSeries("JS heap after GC", sampler.heap, trafficMs, HEAP_BOUND));
    console.log(
      `\nServer memory (pid ${pid}, ${processTree(pid).length} process(es): VmRSS summed every 2 s` +
        `${FORCE_GC ? "; a forced full GC every 5 s, heap reported after it" : "; SOAK_FORCE_GC=0"})`,
    );
    for (const verdict of memory) for (const line of verdict.lines) console.log(`  ${line}`);

    const output = app.output();
    if (process.env.SOAK_SERVER_LOG) await writeFile(process.env.SOAK_SERVER_LOG, output);
    const serverErrors = output
      .split("\n")
      .filter(
        (line) =>
          /^(auction closer|housekeeping):|error/i.test(line) && !/^(GET|POST|HEAD) /.test(line),
      );
    checks.unshift(
      {
        name: "no 5xx answers in the whole run",
        ok: totals.s5xx === 0,
        detail: `${totals.s5xx} of ${totals.requests}`,
      },
      {
        name: "no network errors or timeouts",
        ok: totals.errors === 0,
        detail: `${totals.errors} of ${totals.requests}`,
      },
      {
        name: "server stayed up and logged no errors (closer, housekeeping, loaders)",
        ok: !crashed && serverErrors.length === 0,
        detail: crashed ? "the server exited" : `${serverErrors.length} error lines`,
      },
      ...memory.map((verdict) => ({
        name: `memory flat after warm-up (${verdict.name})`,
        ok: verdict.ok,
        detail: verdict.summary,
      })),
    );
    console.log("\nChecks");
    for (const check of checks)
      console.log(`  ${check.ok ? "PASS" : "FAIL"}  ${check.name}: ${check.detail}`);
    if (http.failures.length) {
      console.log("\nFirst failures");
      for (const failure of http.failures.slice(0, 20)) console.log(`  ${failure}`);
    }
    if (serverErrors.length) {
      console.log("\nServer error lines");
      for (const line of serverErrors.slice(0, 20)) console.log(`  ${line}`);
    }
    const failed = checks.filter((c) => !c.ok).length;
    console.log(`\n${failed === 0 ? "SOAK PASSED" : `SOAK FAILED: ${failed} check(s)`}`);
    return failed === 0;
  } finally {
    await db.end().catch(() => undefined);
    await app?.stop();
    await cluster.remove();
    await rm(uploads, { recursive: true, force: true });
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
