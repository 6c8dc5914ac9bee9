// npm run bench: the production build over HTTP on its own database with 300,000 lots.
// Reports bids/s with p50/p99 for the two concurrency scenarios and /auctions p50/p95.
import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import autocannon from "autocannon";
import pg from "pg";
import { ensureBuilt, startApp, waitFor200 } from "../tests/support/app-process";
import { freePort, startThrowawayCluster } from "../tests/support/cluster";
import { createDatabase, migrateDatabase } from "../tests/support/databases";

const SECRET = "bench-session-secret-0123456789abcdefghij";
const LOTS = Number(process.env.BENCH_LOTS ?? 300_000);

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const log = (line: string) => console.log(`[bench] ${line}`);
  await ensureBuilt();
  const cluster = await startThrowawayCluster("bench");
  let stopApp = async () => undefined as void;
  try {
    await createDatabase(cluster.urlFor("postgres"), "bidyard_bench");
    const databaseUrl = cluster.urlFor("bidyard_bench");
    process.env.DATABASE_URL = databaseUrl;
    await migrateDatabase(databaseUrl);
    const { seedDemoLots, seedScaleLots } = await import("../db/seeds/lots");
    const { sequelize } = await import("../app/models/db.server");
    let started = Date.now();
    await seedDemoLots();
    await seedScaleLots(LOTS);
    await sequelize.close();
    log(`seeded ${LOTS.toLocaleString("en-US")} lots in ${Date.now() - started} ms`);

    const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    const cookie = createCookie("__session", { secrets: [SECRET], path: "/" });
    async function bidder(i: number, deposit: string) {
      const { rows } = await db.query<{ id: string }>(
        "INSERT INTO users (email, verified, deposit) VALUES ($1, true, $2) RETURNING id",
        [`bench-${i}-${randomBytes(3).toString("hex")}@bidyard.test`, deposit],
      );
      const token = randomBytes(32).toString("base64url");
      await db.query(
        "INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')",
        [createHash("sha256").update(token).digest("hex"), rows[0].id],
      );
      return (await cookie.serialize(token)).split(";")[0];
    }
    async function lot() {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
           location_state, estimated_value, starts_at, ends_at)
         VALUES ('copart', $1, 'BENCH0000000000' || lpad((random() * 99)::int::text, 2, '0'), 2020,
           'Ford', 'F-150', 'Dallas', 'TX', 20000, now() - interval '1 hour', now() + interval '1 day')
         RETURNING id`,
        [`B${randomBytes(6).toString("hex")}`],
      );
      return rows[0].id;
    }

    const port = await freePort();
    const base = `http://localhost:${port}`;
    const app = startApp(
      {
        NODE_ENV: "production",
        DATABASE_URL: databaseUrl,
        SESSION_SECRET: SECRET,
        APP_URL: base,
        OIDC_ISSUER: "https://id.bidyard.example",
        OIDC_CLIENT_ID: "bidyard",
        OIDC_CLIENT_SECRET: "bench",
        PAYPAL_CLIENT_ID: "bench",
        PAYPAL_CLIENT_SECRET: "bench",
      },
      port,
    );
    stopApp = app.stop;
    await waitFor200(`${base}/healthz`, app, 30_000);

    async function bidScenario(name: string, users: number, lots: number, requests: number) {
      const cookies = await Promise.all(
        Array.from({ length: users }, (_, i) => bidder(i, "50000.00")),
      );
      const lotIds = await Promise.all(Array.from({ length: lots }, () => lot()));
      const next = new Map(lotIds.map((id) => [id, 50]));
      let sent = 0;
      const result = await autocannon({
        url: `${base}/api/bids`,
        method: "POST",
        connections: Math.min(200, users * 4),
        amount: requests,
        timeout: 30,
        headers: { "content-type": "application/json", origin: base },
        requests: [
          {
            setupRequest: (request) => {
              const k = sent++;
              const lotId = lotIds[k % lots];
              const amount = next.get(lotId)!;
              next.set(lotId, amount + 50);
              return {
                ...request,
                headers: { ...request.headers, cookie: cookies[k % users] },
                body: JSON.stringify({
                  vehicleId: lotId,
                  amount: String(amount),
                  isProxyBid: k % 3 === 0,
                  maxAmount: k % 3 === 0 ? String(amount + 25 * (k % 40) + 50) : undefined,
                }),
              };
            },
          },
        ],
      });
      const { rows } = await db.query<{ rows: string; counted: string }>(
        `SELECT (SELECT count(*) FROM bids WHERE lot_id = ANY($1::bigint[])) AS rows,
                (SELECT sum(bid_count) FROM lots WHERE id = ANY($1::bigint[])) AS counted`,
        [lotIds],
      );
      const summary = {
        scenario: name,
        requests: result.requests.total,
        bidsPerSecond: Math.round(result.requests.total / (result.duration || 1)),
        accepted: result["2xx"],
        refused: result.non2xx,
        errors: result.errors + result.timeouts,
        p50ms: result.latency.p50,
        p99ms: result.latency.p99,
        bidRows: Number(rows[0].rows),
        bidCountSum: Number(rows[0].counted),
      };
      log(JSON.stringify(summary));
      return summary;
    }

    const one = await bidScenario("200 bidders, one lot", 200, 1, 800);
    const many = await bidScenario("50 bidders, 20 lots", 50, 20, 2500);

    const listCookie = await bidder(9999, "1000.00");
    const variants = [
      "/auctions",
      "/auctions?make=Ford",
      "/auctions?location=TX",
      "/auctions?damageType=hail",
      "/auctions?auctionHouse=iaai&make=Toyota",
      "/auctions?make=Honda&location=CA&damageType=collision",
      "/auctions?search=civic",
      "/auctions?yearMin=2015&yearMax=2020&titleType=salvage&runsDrives=yes",
    ];
    // a second keyset page for each variant
    for (const path of [...variants]) {
      const api = await fetch(`${base}/api${path}`, { headers: { cookie: listCookie } });
      const { nextCursor } = (await api.json()) as { nextCursor: string | null };
      if (nextCursor) variants.push(`${path}${path.includes("?") ? "&" : "?"}cursor=${nextCursor}`);
    }
    const latencies: number[] = [];
    let failures = 0;
    const total = 400;
    let issued = 0;
    started = Date.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (issued < total) {
          const path = variants[issued++ % variants.length];
          const t0 = performance.now();
          const response = await fetch(`${base}${path}`, { headers: { cookie: listCookie } });
          await response.text();
          latencies.push(performance.now() - t0);
          if (response.status !== 200) failures += 1;
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const list = {
      scenario: `/auctions over ${LOTS.toLocaleString("en-US")} lots`,
      requests: latencies.length,
      perSecond: Math.round((latencies.length * 1000) / (Date.now() - started)),
      failures,
      p50ms: Math.round(percentile(latencies, 50)),
      p95ms: Math.round(percentile(latencies, 95)),
    };
    log(JSON.stringify(list));

    console.log("\nBidYard benchmark (production build, 8 concurrent page loads, pool 10)");
    for (const s of [one, many])
      console.log(
        `  ${s.scenario}: ${s.bidsPerSecond} bids/s, p50 ${s.p50ms} ms, p99 ${s.p99ms} ms ` +
          `(${s.accepted} accepted, ${s.refused} refused by the rules, ${s.errors} errors; ` +
          `bid rows ${s.bidRows} = counted ${s.bidCountSum})`,
      );
    console.log(
      `  ${list.scenario}: p50 ${list.p50ms} ms, p95 ${list.p95ms} ms, ${list.perSecond} pages/s`,
    );
    await db.end();
  } finally {
    await stopApp();
    await cluster.remove();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
