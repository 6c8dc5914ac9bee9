// What this machine can do without BidYard in the way: bare HTTP, the bid as raw SQL, pgbench.
import { execFile, fork } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { load, percentile } from "./load";

const run = promisify(execFile);

/** req/s of a bare node:http "hello" server under the same load generator. */
export async function helloCeiling(
  port: number,
  connections: number,
  seconds: number,
  started: (pid: number | undefined) => void = () => undefined,
) {
  const child = fork(new URL("./hello-server.mjs", import.meta.url).pathname, [String(port)], {
    stdio: "ignore",
  });
  started(child.pid);
  await new Promise<void>((resolve) => child.once("message", () => resolve()));
  try {
    const url = `http://127.0.0.1:${port}/`;
    await load({ url, connections, seconds: 2 });
    return await load({ url, connections, seconds });
  } finally {
    child.kill();
  }
}

type BidCall = { lotId: string; userId: string; amount: string; max: string; isProxy: boolean };

/**
 * The database's ceiling for the same bid: place_bid (db/functions/020) called straight through pg
 * by `workers` connections (as many as the app's pool), no HTTP and no ORM. The rule alone: the
 * app's bids reach it through place_bid_in_session, with the session read and the limiter's
 * upsert before it (docs/decisions/3602).
 */
export async function rawBidCeiling(
  databaseUrl: string,
  workers: number,
  seconds: number,
  nextBid: (i: number) => BidCall,
) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: workers });
  const times: number[] = [];
  let i = 0;
  let refused = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < until) {
        const bid = nextBid(i++);
        const t0 = performance.now();
        const { rows } = await pool.query<{ code: string }>(
          `SELECT code FROM place_bid($1, $2, $3, $4, $5, now(), 400, 50, interval '2 minutes')`,
          [bid.lotId, bid.userId, bid.amount, bid.max, bid.isProxy],
        );
        times.push(performance.now() - t0);
        if (rows[0].code !== "ok") refused += 1;
      }
    }),
  );
  await pool.end();
  times.sort((a, b) => a - b);
  return {
    perSecond: Math.round(times.length / seconds),
    requests: times.length,
    refused,
    p50: Math.round(percentile(times, 50) * 10) / 10,
    p99: Math.round(percentile(times, 99) * 10) / 10,
  };
}

/** pgbench's TPC-B-like run where pgbench is installed; null where it is not. */
export async function pgbenchTps(
  databaseUrl: string,
  clients: number,
  seconds: number,
  started: (pid: number | undefined) => void = () => undefined,
) {
  try {
    await run("pgbench", ["--version"]);
  } catch {
    return null;
  }
  const tracked = (args: string[]) => {
    const running = run("pgbench", args, { maxBuffer: 1 << 24 });
    started(running.child.pid);
    return running;
  };
  await tracked(["-i", "-q", "-s", "10", databaseUrl]);
  const { stdout } = await tracked([
    "-c",
    String(clients),
    "-j",
    "2",
    "-T",
    String(seconds),
    "-b",
    "tpcb-like",
    databaseUrl,
  ]);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
  return tps ? Math.round(Number(tps[1])) : null;
}
