// A targeted run between full benches: its own small database, the production server started
// once per target under `node --cpu-prof`, 20 connections (50 bidders for `bids`) for
// BENCH_SECONDS, then req/s against /healthz measured in the same run and the profile's busiest
// functions and packages. Usage: tsx bench/profile.ts /healthz /no-such-page bids '/auctions'
// (PROFILE=0 measures without profiling); ':lot' stands for an open lot's id (/auctions/:lot). Profiles are left in .cache/profiles/ (not committed).
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { startLocalServices } from "../scripts/local-services";
import { ensureBuilt, waitFor200, type AppProcess } from "../tests/support/app-process";
import { freePort } from "../tests/support/cluster";
import { treeKb } from "../tests/support/process-memory";
import { flyMachine } from "../tests/support/fly-machine";
import { seededCluster } from "./harness";
import { load } from "./load";
import { buildReference, startReference } from "./reference";
import { signInMany } from "./signin";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const PROFILE = process.env.PROFILE !== "0";
const OUT = path.resolve(".cache/profiles");

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
};

/** Self time by function and by package (node_modules/<pkg>, else the app or node itself). */
export function summarize(file: string, top = 18) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: Node[];
    samples: number[];
    timeDeltas: number[];
  };
  // only the measured load: the last SECONDS of samples (not the start-up and warm-up), or the
  // SECONDS that ended PROFILE_ENDED_AGO seconds before the profile did
  const hits = new Map<number, number>();
  let at = 0;
  const times = profile.timeDeltas.map((d) => (at += d));
  const to = at - Number(process.env.PROFILE_ENDED_AGO ?? 0) * 1e6;
  const from = to - SECONDS * 1e6;
  profile.samples.forEach((id, i) => {
    if (times[i] >= from && times[i] <= to) hits.set(id, (hits.get(id) ?? 0) + 1);
  });
  const nodes = profile.nodes.map((n) => ({ ...n, hitCount: hits.get(n.id) ?? 0 }));
  const total = nodes.reduce((sum, n) => sum + n.hitCount, 0);
  const idle = nodes
    .filter((n) => n.callFrame.functionName === "(idle)")
    .reduce((sum, n) => sum + n.hitCount, 0);
  const busy = total - idle;
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const n of nodes) {
    if (n.callFrame.functionName === "(idle)") continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const file = url.replace(/^file:\/\//, "");
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
    const where = pkg ?? (file.includes("/build/") ? "app build" : file ? "node" : functionName);
    const key = `${functionName || "(anonymous)"} ${path.basename(file)}:${lineNumber}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + n.hitCount);
    byPackage.set(where, (byPackage.get(where) ?? 0) + n.hitCount);
  }
  const pct = (n: number) => `${((100 * n) / busy).toFixed(1)}%`;
  const list = (m: Map<string, number>, k: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, n]) => `    ${pct(n).padStart(6)}  ${name}`)
      .join("\n");
  return `  busy ${((100 * busy) / total).toFixed(0)}% of samples\n  by package:\n${list(byPackage, Number(process.env.PACKAGES ?? 12))}\n  by function (self):\n${list(byFunction, top)}`;
}

async function main() {
  const targets = process.argv.slice(2);
  if (targets.length === 0) targets.push("/healthz", "/no-such-page");
  await ensureBuilt();
  const { cluster, databaseUrl } = await seededCluster("profile", {
    lots: Number(process.env.BENCH_LOTS ?? 30_000),
    listings: Number(process.env.BENCH_LISTINGS ?? 10_000),
  });
  const stops: Array<() => Promise<unknown>> = [() => cluster.remove()];
  try {
    const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    db.on("error", () => undefined);

    const port = await freePort();
    const base = `http://localhost:${port}`;
    const services = await startLocalServices({ appUrl: base, oidcPort: 0 });
    stops.unshift(() => services.stop());
    const { LOCAL_OIDC_CLIENT_ID, LOCAL_OIDC_CLIENT_SECRET, LOCAL_OIDC_HOST } =
      await import("../app/services/accounts/local-oidc");
    const env = {
      PATH: process.env.PATH!,
      HOME: process.env.HOME!,
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "profile-secret-profile-secret-profile",
      APP_URL: base,
      OIDC_ISSUER: `http://${LOCAL_OIDC_HOST}:${services.env.LOCAL_OIDC_PORT}`,
      OIDC_CLIENT_ID: LOCAL_OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET: LOCAL_OIDC_CLIENT_SECRET,
      PAYPAL_CLIENT_ID: "profile",
      PAYPAL_CLIENT_SECRET: "profile",
      BID_RATE_LIMIT_PER_MINUTE: "1000000",
      TRUST_PROXY: "fly",
      WEB_CONCURRENCY: process.env.WORKERS ?? "1",
      // one server on this machine, storing no files (docs/decisions/3105)
      FILE_STORAGE: "local",
      // heap caps as on fly.toml's machine, as the bench's servers run (docs/decisions/3005)
      MACHINE_MEMORY_MB: String(flyMachine().memoryMb),
    };
    // PROFILE_APP=reference profiles the bench's reference app (bench/reference, built first)
    // on the same database and sign-ins, for a side-by-side reading of the same page
    const reference = process.env.PROFILE_APP === "reference";
    if (reference) await buildReference();
    const start = (profileDir: string | null): AppProcess => {
      let output = "";
      const args = [
        "--max-old-space-size=192",
        // EXTRA_NODE_ARGS: flags to try beside the shipped ones (heap sizes and the like)
        ...(process.env.EXTRA_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
        ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
        "build/server/index.js",
      ];
      const proc = spawn("node", args, {
        env: env as unknown as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
      });
      proc.stdout!.on("data", (c: Buffer) => (output += c));
      proc.stderr!.on("data", (c: Buffer) => (output += c));
      return {
        url: base,
        proc,
        output: () => output,
        stop: () =>
          new Promise((resolve) => {
            if (proc.exitCode !== null) return resolve();
            proc.once("exit", () => resolve());
            proc.kill("SIGTERM");
          }),
      };
    };

    let app = start(null);
    await waitFor200(`${base}/healthz`, app, 30_000);
    const emails = Array.from({ length: 51 }, (_, i) => `profile-bidder-${i}@bidyard.test`);
    const cookies = await signInMany(base, emails);
    await app.stop();
    await db.query(
      `UPDATE users SET verified = true, deposit = 5000000000 WHERE email LIKE 'profile-bidder-%'`,
    );
    const reader = { cookie: cookies[50] };
    rmSync(OUT, { recursive: true, force: true });

    // ":lot" in a target is the open lot that ends last (the bench's lot page row does the same)
    const {
      rows: [lot],
    } = await db.query<{ id: string }>(
      "SELECT id FROM lots WHERE status = 'active' ORDER BY ends_at DESC LIMIT 1",
    );
    const rates = new Map<string, number>();
    for (const given of targets) {
      const target = given.replace(":lot", lot.id);
      const dir = path.join(OUT, given.replace(/[^a-z0-9]+/gi, "_") || "root");
      mkdirSync(dir, { recursive: true });
      app = reference
        ? startReference(
            { DATABASE_URL: env.DATABASE_URL, SESSION_SECRET: env.SESSION_SECRET },
            port,
            PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [],
          )
        : start(PROFILE ? dir : null);
      await waitFor200(`${base}/healthz`, app, 30_000);
      // the answer itself, to read beside its profile
      if (target !== "bids")
        writeFileSync(
          path.join(dir, "answer.txt"),
          await (await fetch(`${base}${target}`, { headers: reader })).text(),
        );
      let peakKb = 0;
      const sampler = setInterval(
        () => (peakKb = Math.max(peakKb, treeKb(app.proc.pid!, "VmRSS"))),
        200,
      );
      let result;
      if (target === "bids") {
        const { rows } = await db.query<{ id: string }>(
          `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
             location_state, estimated_value, starts_at, ends_at)
           SELECT 'copart', 'P' || substr(md5(random()::text), 1, 12), 'PROFILE0000000000', 2020,
                  'Ford', 'F-150', 'Dallas', 'TX', 20000, now() - interval '1 hour',
                  now() + interval '1 day'
             FROM generate_series(1, 20) RETURNING id`,
        );
        const next = new Map(rows.map((r) => [r.id, 50]));
        const bid = (i: number) => {
          const lotId = rows[i % rows.length].id;
          const amount = next.get(lotId)!;
          next.set(lotId, amount + 50);
          return {
            headers: { cookie: cookies[i % 50] },
            body: JSON.stringify({ vehicleId: lotId, amount: String(amount) }),
          };
        };
        const options = {
          url: `${base}/api/bids`,
          method: "POST",
          connections: 50,
          headers: { "content-type": "application/json", origin: base },
          next: bid,
        };
        await load({ ...options, seconds: 2 });
        result = await load({ ...options, seconds: SECONDS });
      } else {
        const url = `${base}${target}`;
        await load({ url, connections: 20, seconds: 2, headers: reader });
        result = await load({ url, connections: 20, seconds: SECONDS, headers: reader });
      }
      clearInterval(sampler);
      await app.stop();
      rates.set(target, result.perSecond);
      const health = rates.get("/healthz");
      console.log(
        `\n${target}: ${result.perSecond} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms ` +
          `(${result.ok} 2xx, ${result.refused} 4xx, ${result.serverErrors} 5xx), ` +
          `peak RSS ${Math.round(peakKb / 1024)} MB` +
          (health && target !== "/healthz"
            ? `; ${(result.perSecond / health).toFixed(2)} × /healthz`
            : ""),
      );
      // the worker's profile: the primary (which only forks and watches) writes a small one too
      const file = PROFILE
        ? readdirSync(dir)
            .filter((f) => f.endsWith(".cpuprofile"))
            .sort((a, b) => statSync(path.join(dir, b)).size - statSync(path.join(dir, a)).size)[0]
        : undefined;
      if (file) console.log(summarize(path.join(dir, file)));
    }
    await db.end();
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
  }
}

// `tsx bench/profile.ts --summarize FILE...` reads profiles already taken.
const run =
  process.argv[2] === "--summarize"
    ? async () => process.argv.slice(3).forEach((f) => console.log(`${f}\n${summarize(f, 30)}`))
    : main;
if (import.meta.url === `file://${process.argv[1]}`) {
  run().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
