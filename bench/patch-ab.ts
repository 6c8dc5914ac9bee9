// What each piece of patches/ buys (docs/decisions/3102): the production server started once per
// variant of node_modules (all patches; all but one piece; none of a file), the variants
// interleaved round after round (their order rotated each round) so the machine's load falls on
// all alike, and for each page the server's CPU per request read from /proc (bench/cpu.ts).
// Usage: SESSION_SECRET=(32+ characters) npx tsx bench/patch-ab.ts [rounds] (BENCH_SECONDS per page and variant, default 4,
// after BENCH_WARM seconds of warm-up, default 2;
// BENCH_ONLY_VARIANTS=all,no-skip to run some). Puts the patched files back when it ends.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startLocalServices } from "../scripts/local-services";
import { ensureBuilt, startApp, waitFor200, type AppProcess } from "../tests/support/app-process";
import { freePort, startThrowawayCluster } from "../tests/support/cluster";
import { createDatabase, migrateDatabase } from "../tests/support/databases";
import { flyMachine } from "../tests/support/fly-machine";
import { cpuDuring } from "./cpu";
import { postmasterPid } from "./harness";
import { load } from "./load";

const ROUNDS = Number(process.argv[2] ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
/** seconds of load before each measured one (the JIT's work out of the figure) */
const WARM = Number(process.env.BENCH_WARM ?? 2);

const FILES = {
  router: "node_modules/@remix-run/router/dist/router.cjs.js",
  data: "node_modules/@remix-run/server-runtime/dist/data.js",
  entry: "node_modules/@remix-run/server-runtime/dist/entry.js",
  react: "node_modules/@remix-run/react/dist/server.js",
  rrd: "node_modules/react-router-dom/server.js",
} as const;
type Key = keyof typeof FILES;

/** the files as patched (what `npm install` leaves) and as published (every patch reversed) */
function sources() {
  const patched = Object.fromEntries(
    Object.entries(FILES).map(([k, f]) => [k, readFileSync(f, "utf8")]),
  ) as Record<Key, string>;
  const dir = mkdtempSync(path.join(os.tmpdir(), "patch-ab-"));
  try {
    for (const file of Object.values(FILES)) cpSync(file, path.join(dir, file));
    // every patch file, whatever versions it is named for (they change with each re-make)
    for (const patch of readdirSync("patches").filter((f) => f.endsWith(".patch")))
      execFileSync("patch", ["-R", "-p1", "-s", "-d", dir, "-i", path.resolve("patches", patch)]);
    const published = Object.fromEntries(
      Object.entries(FILES).map(([k, f]) => [k, readFileSync(path.join(dir, f), "utf8")]),
    ) as Record<Key, string>;
    return { patched, published };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `text` with `from` replaced by `to`; fails if `from` is not there exactly once */
function cut(text: string, from: string, to = "") {
  if (text.split(from).length !== 2) throw new Error(`not found once: ${from.slice(0, 60)}`);
  return text.replace(from, () => to);
}

function variants(patched: Record<Key, string>, published: Record<Key, string>) {
  const r = patched.router;
  const noSkip = cut(
    r,
    "    if (!allowPartial && branch.fullPathMatcher && !branch.fullPathMatcher.test(decoded)) continue;\n",
  );
  // ranked per match again; the whole-path skip then has nothing to test (it is made with them)
  let noRankCache = cut(
    r,
    "  let branches = rankedBranchesCache.get(routes);",
    "  let branches = undefined;",
  );
  noRankCache = cut(noRankCache, "    rankedBranchesCache.set(routes, branches);\n");
  noRankCache = cut(
    noRankCache,
    "      branch.fullPathMatcher = branch.routesMeta",
    "      if (false) branch.fullPathMatcher = branch.routesMeta",
  );
  const noStrip = published.data;
  return {
    all: {},
    "no-router-patch": { router: published.router },
    "no-ranked-branch-cache": { router: noRankCache },
    "no-whole-path-skip": { router: noSkip },
    "no-render-routes-once": {
      entry: published.entry,
      react: published.react,
      rrd: published.rrd,
    },
    "no-rrd-data-routes-once": { rrd: published.rrd },
    "no-strip-param-identity": { data: noStrip },
  } as Record<string, Partial<Record<Key, string>>>;
}

function install(patched: Record<Key, string>, variant: Partial<Record<Key, string>>) {
  for (const key of Object.keys(FILES) as Key[]) {
    const text = variant[key] ?? patched[key];
    if (readFileSync(FILES[key], "utf8") !== text) writeFileSync(FILES[key], text);
  }
}

async function main() {
  const { patched, published } = sources();
  let running: AppProcess | null = null;
  const stops: Array<() => Promise<unknown>> = [];
  // stopped early (Ctrl-C), node_modules gets its patched files back all the same
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, async () => {
      install(patched, {});
      running?.proc.kill("SIGKILL");
      for (const stop of stops) await stop().catch(() => undefined);
      process.exit(130);
    });
  const all = variants(patched, published);
  const only = process.env.BENCH_ONLY_VARIANTS?.split(",");
  const names = Object.keys(all).filter((n) => n === "all" || !only || only.includes(n));
  await ensureBuilt();
  const cluster = await startThrowawayCluster("patch-ab");
  stops.push(() => cluster.remove());
  const pgPid = () => postmasterPid(cluster.dataDir);
  try {
    await createDatabase(cluster.urlFor("postgres"), "bidyard_patch_ab");
    const databaseUrl = cluster.urlFor("bidyard_patch_ab");
    process.env.DATABASE_URL = databaseUrl;
    await migrateDatabase(databaseUrl);
    // the app's settings are read once, before this point: the secret comes from the environment
    const secret = process.env.SESSION_SECRET ?? "";
    if (secret.length < 32) throw new Error("SESSION_SECRET (32 characters or more) is needed");
    const { seedDemoLots, seedScaleLots } = await import("../db/seeds/lots");
    const { sequelize } = await import("../app/models/db.server");
    await seedDemoLots();
    await seedScaleLots(Number(process.env.BENCH_LOTS ?? 30_000));
    // a reader signed in as the sign-in flow leaves one: a user and a session in the database
    const { User } = await import("../app/models/user.server");
    const { createUserSession } = await import("../app/services/accounts/session.server");
    const reader = await User.create({ email: "patch-ab-reader@bidyard.test", verified: true });
    const cookie = (await createUserSession(reader.id)).split(";")[0];
    await sequelize.close();
    const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    db.on("error", () => undefined);
    await db.query("VACUUM ANALYZE");
    await db.end();

    const port = await freePort();
    const base = `http://localhost:${port}`;
    const services = await startLocalServices({ appUrl: base, oidcPort: 0, mailCatcherPort: 0 });
    stops.unshift(() => services.stop());
    const { LOCAL_OIDC_CLIENT_ID, LOCAL_OIDC_CLIENT_SECRET, LOCAL_OIDC_HOST } =
      await import("../app/services/accounts/local-oidc");
    const env = {
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: secret,
      APP_URL: base,
      OIDC_ISSUER: `http://${LOCAL_OIDC_HOST}:${services.env.LOCAL_OIDC_PORT}`,
      OIDC_CLIENT_ID: LOCAL_OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET: LOCAL_OIDC_CLIENT_SECRET,
      PAYPAL_CLIENT_ID: "bench",
      PAYPAL_CLIENT_SECRET: "bench",
      TRUST_PROXY: "fly",
      MACHINE_MEMORY_MB: String(flyMachine().memoryMb),
    };
    const pages: Array<[string, string, Record<string, string> | undefined]> = [
      ["/healthz", "/healthz", undefined],
      ["404 signed in", "/no-such-page-here", { cookie }],
      ["404 signed out", "/no-such-page-here", undefined],
      ["/auctions signed in", "/auctions", { cookie }],
    ];

    // BENCH_COUNT_READS=1: instead of timing, count the session reads (scans of the sessions
    // table) per signed-in /auctions page under each variant: 200 pages one after another
    if (process.env.BENCH_COUNT_READS === "1") {
      const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      const scans = async () => {
        // a backend's table counters reach the shared statistics within 10 s of going idle
        await new Promise((resolve) => setTimeout(resolve, 11_000));
        const { rows } = await db.query<{ n: string }>(
          `SELECT coalesce(idx_scan, 0) + coalesce(seq_scan, 0) AS n
             FROM pg_stat_user_tables WHERE relname = 'sessions'`,
        );
        return Number(rows[0].n);
      };
      for (const name of names) {
        install(patched, all[name]);
        const app = (running = startApp(env, port));
        try {
          await waitFor200(`${base}/healthz`, app, 60_000);
          const before = await scans();
          for (let i = 0; i < 200; i += 1) {
            const response = await fetch(`${base}/auctions`, { headers: { cookie } });
            if (response.status !== 200) throw new Error(`${name}: /auctions ${response.status}`);
            await response.arrayBuffer();
          }
          console.log(
            `${name}: ${((await scans()) - before) / 200} session reads per /auctions page`,
          );
        } finally {
          await app.stop();
        }
      }
      await db.end();
      return;
    }

    // results[variant][page] = Node CPU ms per request, one per round (and PostgreSQL's)
    const results: Record<string, Record<string, number[]>> = {};
    const loads: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      loads.push(os.loadavg()[0].toFixed(1));
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const name of order) {
        install(patched, all[name]);
        const app = (running = startApp(env, port));
        try {
          await waitFor200(`${base}/healthz`, app, 60_000);
          for (const [label, pagePath, headers] of pages) {
            const url = `${base}${pagePath}`;
            await load({ url, connections: 20, seconds: WARM, headers });
            const { result, used } = await cpuDuring({ node: app.proc.pid, pg: pgPid() }, () =>
              load({ url, connections: 20, seconds: SECONDS, headers }),
            );
            const expected = label.startsWith("404") ? 0 : result.requests;
            if (result.serverErrors || result.errors || result.ok !== expected)
              throw new Error(`${name} ${label}: ${result.ok} 2xx of ${result.requests}`);
            const perRequest = used.node / result.requests;
            const pgPerRequest = used.pg / result.requests;
            ((results[name] ??= {})[label] ??= []).push(perRequest);
            (results[name][`${label}, PostgreSQL`] ??= []).push(pgPerRequest);
            console.log(
              `round ${round + 1} ${name.padEnd(26)} ${label.padEnd(20)} ` +
                `${perRequest.toFixed(3)} ms/request, PostgreSQL ${pgPerRequest.toFixed(3)} ` +
                `(${result.requests} requests, ${result.ok} 2xx, ` +
                `${result.perSecond} req/s; load ${os.loadavg()[0].toFixed(1)})`,
            );
          }
        } finally {
          await app.stop();
        }
      }
    }
    loads.push(os.loadavg()[0].toFixed(1));

    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    console.log(
      `\nCPU ms per request (the server's processes; PostgreSQL's apart), median of ${ROUNDS} rounds [min–max]; ` +
        `${SECONDS} s per page; 1-minute load average at each round's start and the end: ` +
        `${loads.join(", ")}`,
    );
    for (const label of Object.keys(results.all)) {
      console.log(`\n${label}`);
      for (const name of names) {
        const xs = results[name][label];
        const m = median(xs);
        // paired with the same round's run of every patch: the load of that moment cancels out
        const diffs = xs.map((x, i) => x - results.all[label][i]);
        const sign = (n: number) => `${n >= 0 ? "+" : ""}${n.toFixed(3)}`;
        const delta =
          name === "all"
            ? ""
            : `; without it ${sign(median(diffs))} ms [${sign(Math.min(...diffs))} to ${sign(Math.max(...diffs))}] paired by round`;
        console.log(
          `  ${name.padEnd(26)} ${m.toFixed(3)} [${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)}]${delta}`,
        );
      }
    }
  } finally {
    install(patched, {});
    for (const stop of stops) await stop().catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
