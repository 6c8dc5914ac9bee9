import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startLocalCluster } from "../../db/postgres";
import { freePort, startThrowawayCluster } from "../support/cluster";

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
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fs.existsSync(pidFile)).toBe(true);
    const port = await freePort();
    const restarted = await startLocalCluster({ dataDir: cluster.dataDir, port });
    expect(await answers(restarted.urlFor("postgres"))).toBe(1);
    cluster = { ...cluster, ...restarted, remove: cluster.remove };
  });
});
