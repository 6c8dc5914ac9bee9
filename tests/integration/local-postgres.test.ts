import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalCluster, stopLocalCluster } from "../../db/postgres";
import { freePort, startThrowawayCluster } from "../support/cluster";
import { waitFor } from "../support/wait";

/** Whether a process of this id still runs (a zombie, dead but not yet reaped, does not). */
function running(pid: number) {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1][0] !== "Z";
  } catch {
    return false;
  }
}

async function answers(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query("select 1 as one");
  await client.end();
  return rows[0].one;
}

describe("local PostgreSQL launcher", () => {
  let cluster: Awaited<ReturnType<typeof startThrowawayCluster>>;
  afterAll(() => cluster?.remove());

  it("reuses a server left running and recovers from one that was killed", async () => {
    cluster = await startThrowawayCluster("launcher");
    expect(await answers(cluster.urlFor("postgres"))).toBe(1);

    // A second start (as after a killed dev run) finds the server and reuses it.
    const again = await startLocalCluster({ dataDir: cluster.dataDir, port: cluster.port });
    expect(again.port).toBe(cluster.port);

    // A hard-killed server leaves postmaster.pid behind; the next start still comes up.
    const pidFile = path.join(cluster.dataDir, "postmaster.pid");
    const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
    process.kill(pid, "SIGKILL");
    await waitFor(() => !running(pid), { what: `the killed postmaster (${pid}) gone` });
    expect(fs.existsSync(pidFile)).toBe(true);
    const port = await freePort();
    const restarted = await startLocalCluster({ dataDir: cluster.dataDir, port });
    expect(await answers(restarted.urlFor("postgres"))).toBe(1);
    cluster = { ...cluster, ...restarted, remove: cluster.remove };
  });
});

describe("a newcomer's first start", () => {
  const checkout = path.join(os.tmpdir(), `bidyard-fresh-clone-${process.pid}`);
  afterAll(async () => {
    await stopLocalCluster(path.join(checkout, ".data/pg"));
    fs.rmSync(checkout, { recursive: true, force: true });
  });

  it("starts the local PostgreSQL in a fresh checkout with no .data (as root too)", async () => {
    // A clone anyone may walk into (a fresh clone is 0755, not a private temp folder) and no
    // .data yet: the first start must create it so that the postgres user can reach its cluster.
    fs.rmSync(checkout, { recursive: true, force: true });
    fs.mkdirSync(checkout, { mode: 0o755 });
    fs.chmodSync(checkout, 0o755);
    const tsx = path.resolve("node_modules/.bin/tsx");
    const script = path.resolve("tests/support/first-start.ts");
    const port = String(await freePort());
    const start = () =>
      promisify(execFile)(tsx, [script], {
        cwd: checkout,
        env: { ...process.env, DATABASE_URL: "", LOCAL_PG_PORT: port },
      });

    const first = JSON.parse((await start()).stdout.trim().split("\n").pop()!);
    expect(first.dataDir).toBe(path.join(checkout, ".data/pg"));
    expect(await answers(first.url)).toBe(1);
    expect(fs.statSync(path.join(checkout, ".data")).mode & 0o777).toBe(0o755);

    // The second start finds the same cluster (no fallback to another folder).
    const second = JSON.parse((await start()).stdout.trim().split("\n").pop()!);
    expect(second).toEqual(first);
  }, 60_000);
});
