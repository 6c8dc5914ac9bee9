// Two builds of BidYard side by side on one page: what a change costs or buys in server CPU per
// request, before a full bench. Each build is a copy of `build/` kept under .cache/ab/<name>/build
// (`tsx bench/ab-builds.ts --keep NAME` copies the current one there); the servers run at once on
// one database, and the rounds alternate them (their order turned each round) so the machine's
// load falls on both alike; what it reports is the median of the rounds' ratios. Node and PostgreSQL CPU per request are read from /proc (bench/cpu.ts).
// Usage: tsx bench/ab-builds.ts [--keep NAME] | A B [path, ':lot' for an open lot] (BENCH_ROUNDS,
// default 5; BENCH_SECONDS per round and build, default 5, after 2 of warm-up). A variant the
// bench builds (bench/variants.ts) is kept for it with `tsx bench/variants.ts NAME --keep`.
import { cpSync, existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { startLocalServices } from "../scripts/local-services";
import { startApp, waitFor200, type AppProcess } from "../tests/support/app-process";
import { freePort } from "../tests/support/cluster";
import { flyMachine } from "../tests/support/fly-machine";
import { cpuDuring } from "./cpu";
import { postmasterPid, seededCluster } from "./harness";
import { load } from "./load";
import { signInMany } from "./signin";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const KEPT = path.resolve(".cache/ab");

function keep(name: string) {
  const to = path.join(KEPT, name, "build");
  rmSync(to, { recursive: true, force: true });
  cpSync("build", to, { recursive: true });
  console.log(`kept build/ as ${to}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(names: string[], target: string) {
  for (const name of names)
    if (!existsSync(path.join(KEPT, name, "build/index.js")))
      throw new Error(`no build kept as ${name}: tsx bench/ab-builds.ts --keep ${name}`);
  const { cluster, databaseUrl } = await seededCluster("ab", {
    lots: Number(process.env.BENCH_LOTS ?? 5_000),
  });
  const stops: Array<() => Promise<unknown>> = [() => cluster.remove()];
  try {
    const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    db.on("error", () => undefined);

    const ports = await Promise.all(names.map(() => freePort()));
    const signInPort = await freePort();
    const services = await startLocalServices({
      appUrl: `http://localhost:${signInPort}`,
      oidcPort: 0,
    });
    stops.unshift(() => services.stop());
    const { LOCAL_OIDC_CLIENT_ID, LOCAL_OIDC_CLIENT_SECRET, LOCAL_OIDC_HOST } =
      await import("../app/services/accounts/local-oidc");
    // AB_NODE_ARGS: Node flags to add (`--trace-gc`, say; the workers inherit them), each
    // server's output then kept in .cache/ab/<name>/output.txt
    const extra = process.env.AB_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
    /** the kept build `name` served as `npm start` serves build/ */
    const start = (name: string, port: number): AppProcess => {
      const app = startApp(
        {
          NODE_ENV: "production",
          DATABASE_URL: databaseUrl,
          SESSION_SECRET: "ab-builds-secret-ab-builds-secret-ab",
          APP_URL: `http://localhost:${port}`,
          OIDC_ISSUER: `http://${LOCAL_OIDC_HOST}:${services.env.LOCAL_OIDC_PORT}`,
          OIDC_CLIENT_ID: LOCAL_OIDC_CLIENT_ID,
          OIDC_CLIENT_SECRET: LOCAL_OIDC_CLIENT_SECRET,
          PAYPAL_CLIENT_ID: "ab",
          PAYPAL_CLIENT_SECRET: "ab",
          TRUST_PROXY: "fly",
          WEB_CONCURRENCY: "1",
          FILE_STORAGE: "local",
          // heap caps as on fly.toml's machine, as the bench's servers have them
          MACHINE_MEMORY_MB: process.env.MACHINE_MEMORY_MB ?? String(flyMachine().memoryMb),
        },
        port,
        extra,
        path.join(KEPT, name, "build"),
      );
      if (!extra.length) return app;
      return {
        ...app,
        stop: () => {
          writeFileSync(path.join(KEPT, name, "output.txt"), app.output());
          return app.stop();
        },
      };
    };
    // one session, read by both servers (same database and secret), signed in on a server of
    // its own: a server that answered a sign-in measured slower per page afterwards than one
    // that did not, which would favour whichever build did not sign in
    const signIn = start(names[0], signInPort);
    await waitFor200(`${signIn.url}/healthz`, signIn, 30_000);
    const [cookie] = await signInMany(signIn.url, ["ab-reader@bidyard.test"]);
    await signIn.stop();
    const servers = names.map((name, i) => start(name, ports[i]));
    for (const server of servers) {
      stops.unshift(() => server.stop());
      await waitFor200(`${server.url}/healthz`, server, 30_000);
    }
    await db.query(
      `UPDATE users SET verified = true, deposit = 500000 WHERE email = 'ab-reader@bidyard.test'`,
    );
    const {
      rows: [lot],
    } = await db.query<{ id: string }>(
      "SELECT id FROM lots WHERE status = 'active' ORDER BY ends_at DESC LIMIT 1",
    );
    const page = target.replace(":lot", lot.id);
    const headers = { cookie };
    const sizes = await Promise.all(
      servers.map(async (s) => (await (await fetch(`${s.url}${page}`, { headers })).text()).length),
    );
    // the JIT's first minutes out of the figures: each server warmed once at length
    for (const server of servers)
      await load({ url: `${server.url}${page}`, connections: 20, seconds: 8, headers });
    const node: number[][] = names.map(() => []);
    const pgMs: number[][] = names.map(() => []);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let k = 0; k < names.length; k += 1) {
        const i = (k + round) % names.length;
        const url = `${servers[i].url}${page}`;
        await load({ url, connections: 20, seconds: 2, headers });
        const { result, used } = await cpuDuring(
          { node: servers[i].proc.pid, pg: postmasterPid(cluster.dataDir) },
          () => load({ url, connections: 20, seconds: SECONDS, headers }),
        );
        if (result.serverErrors || result.errors || result.ok !== result.requests)
          throw new Error(`${names[i]}: ${result.ok} 2xx of ${result.requests}`);
        node[i].push(used.node / result.requests);
        pgMs[i].push(used.pg / result.requests);
      }
      console.log(
        `round ${round + 1}: ` +
          names
            .map((n, i) => `${n} ${node[i][round].toFixed(2)} + ${pgMs[i][round].toFixed(2)}`)
            .join(", "),
      );
    }
    // each round's ratio (the two builds measured back to back), then their median: the
    // machine's speed drifts from round to round more than the builds differ
    const ratios = node[0].map((_, r) => (node[1][r] + pgMs[1][r]) / (node[0][r] + pgMs[0][r]));
    console.log(`\n${target}, median of ${ROUNDS} rounds of ${SECONDS} s, CPU ms per request:`);
    names.forEach((n, i) =>
      console.log(
        `  ${n}: ${median(node[i]).toFixed(2)} + ${median(pgMs[i]).toFixed(2)} ms, ` +
          `${(sizes[i] / 1024).toFixed(1)} KB`,
      ),
    );
    console.log(
      `  ${names[1]} / ${names[0]}, round by round: ${ratios.map((x) => x.toFixed(3)).join(", ")}; ` +
        `median ${median(ratios).toFixed(3)}`,
    );
    await db.end();
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
  }
}

const args = process.argv.slice(2);
const run =
  args[0] === "--keep"
    ? async () => keep(args[1])
    : () => main(args.slice(0, 2), args[2] ?? "/auctions/:lot");
run().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
