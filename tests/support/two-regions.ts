// BidYard in two regions on one machine (docs/decisions/3701): a primary PostgreSQL and a real
// streaming replica of it; the production server twice, "dfw" (the primary region, beside the
// primary) and "ams" (reading the replica, its connection to the primary `distanceMs` away); and
// an edge that honours fly-replay and adds the same distance to whatever it sends to dfw. A far
// buyer enters at ams; a near one (or the far buyer before this work) enters at dfw.
import pg from "pg";
import { startThrowawayCluster } from "./cluster";
import { liveDatabase, startLiveServer } from "./live-cluster";
import { startReplica, type Replica } from "./replica";
import { delayedTcp, regionProxy } from "./regions";
import type { AppProcess } from "./app-process";
import { waitFor } from "./wait";
import { parseWalPosition } from "~/utils/wal-position";

export const DATABASE = "bidyard_regions";

export type TwoRegions = Awaited<ReturnType<typeof startTwoRegions>>;

export async function startTwoRegions(
  name: string,
  options: { distanceMs: number; applyDelayMs?: number; ams?: Record<string, string> },
) {
  // commits wait for their log as in production (synchronous_commit on): what a reader's own
  // write is waited for by (app/models/db.server.ts primaryWalPosition)
  const cluster = await startThrowawayCluster(`regions-${name}`, [
    "-c fsync=off",
    "-c full_page_writes=off",
  ]);
  const stops: Array<() => Promise<unknown>> = [() => cluster.remove()];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
  };
  try {
    const databaseUrl = await liveDatabase(cluster.urlFor("postgres"), DATABASE);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    stops.push(() => db.end());
    const replica: Replica = await startReplica(cluster, {
      name,
      ...(options.applyDelayMs ? { applyDelayMs: options.applyDelayMs } : {}),
    });
    stops.push(() => replica.remove());
    // ams reaches the primary database across the distance
    const far = await delayedTcp({ host: "127.0.0.1", port: cluster.port }, options.distanceMs);
    stops.push(() => far.close());
    const farUrl = new URL(databaseUrl);
    farUrl.port = String(far.port);

    const dfw: AppProcess = await startLiveServer(databaseUrl, {
      PRIMARY_REGION: "dfw",
      FLY_REGION: "dfw",
    });
    stops.push(() => dfw.stop());
    const ams: AppProcess = await startLiveServer(farUrl.toString(), {
      PRIMARY_REGION: "dfw",
      FLY_REGION: "ams",
      DATABASE_REPLICA_URL: replica.urlFor(DATABASE),
      PRIMARY_URL: dfw.url,
      ...options.ams,
    });
    stops.push(() => ams.stop());
    const regions = { dfw: dfw.url, ams: ams.url };
    const delays = { dfw: options.distanceMs, ams: 0 };
    // the far buyer's edge is beside ams; the near edge (everything served in dfw) for comparison
    const farEdge = await regionProxy({ regions, entry: "ams", delayMs: delays });
    stops.push(() => farEdge.close());
    const primaryOnly = await regionProxy({ regions, entry: "dfw", delayMs: delays });
    stops.push(() => primaryOnly.close());
    /** Waits until the replica has replayed everything written so far (people made in tests). */
    const caughtUp = async () => {
      const {
        rows: [{ position }],
      } = await db.query<{ position: string }>(
        "SELECT pg_current_wal_flush_lsn()::text AS position",
      );
      const target = parseWalPosition(position)!;
      await waitFor(async () => (parseWalPosition(await replica.replayLsn()) ?? -1n) >= target, {
        what: "the replica to catch up",
        timeout: 30_000,
        every: 50,
      });
    };
    return { cluster, db, databaseUrl, replica, dfw, ams, farEdge, primaryOnly, caughtUp, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
