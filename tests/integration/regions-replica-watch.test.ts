// The replica's watcher (docs/decisions/3701): a read waits for the reader's own last write until
// the replica has replayed it, for a bounded time; a replica further behind than the bound, or
// down, is not read.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReplicaWatch } from "~/models/replica.server";
import { parseWalPosition } from "~/utils/wal-position";
import { startThrowawayCluster } from "../support/cluster";
import { startReplica, type Replica } from "../support/replica";
import { waitFor } from "../support/wait";

let primary: Awaited<ReturnType<typeof startThrowawayCluster>>;
let late: Replica;
let db: pg.Client;
let watch: ReplicaWatch;

beforeAll(async () => {
  primary = await startThrowawayCluster("watched-primary");
  db = new pg.Client({ connectionString: primary.urlFor("postgres") });
  await db.connect();
  await db.query("CREATE TABLE notes (id serial PRIMARY KEY)");
  // replays 1.5 s late; read only while at most 1 s behind
  late = await startReplica(primary, { name: "watch", applyDelayMs: 1_500 });
  watch = new ReplicaWatch(late.urlFor("postgres"), { maxLagMs: 1_000, everyMs: 100 });
  watch.start();
}, 60_000);

afterAll(async () => {
  watch?.stop();
  await db?.end().catch(() => undefined);
  await late?.remove();
  await primary?.remove();
});

/** Writes on the primary; returns its log position after the write. */
async function write() {
  await db.query("INSERT INTO notes DEFAULT VALUES");
  const { rows } = await db.query<{ position: string }>(
    "SELECT pg_current_wal_insert_lsn()::text AS position",
  );
  return parseWalPosition(rows[0].position)!;
}

describe("the replica's watcher", () => {
  it("holds a read for the reader's write within its bound, and lets it go once replayed", async () => {
    await waitFor(() => watch.state.status === "ok", { what: "the replica ok", timeout: 20_000 });
    const position = await write();
    // not replayed within 100 ms: the read goes to the primary region
    expect(await watch.reached(position, 100)).toBe(false);
    // given longer than the delay, the same wait succeeds
    expect(await watch.reached(position, 5_000)).toBe(true);
    expect(parseWalPosition(watch.state.replayed)! >= position).toBe(true);
  });

  it("calls a replica further behind than its bound lagging, and ok again once caught up", async () => {
    await waitFor(() => watch.usable(), { what: "the replica usable", timeout: 20_000 });
    // writes a second apart keep the newest unreplayed one more than 1 s old for a while
    await write();
    await waitFor(() => watch.state.status === "lagging", {
      what: "the replica lagging",
      timeout: 10_000,
      every: 20,
    });
    expect(watch.usable()).toBe(false);
    expect(watch.state.lagMs).toBeGreaterThan(1_000);
    // a read does not wait for a replica already further behind than its wait: it is replayed
    const asked = performance.now();
    expect(await watch.reached(await write(), 800)).toBe(false);
    expect(performance.now() - asked).toBeLessThan(800);
    await waitFor(() => watch.state.status === "ok", { what: "caught up", timeout: 10_000 });
  });

  it("calls a stopped replica down, and a wait for it fails at once", async () => {
    await late.stop();
    try {
      await waitFor(() => watch.state.status === "down", { what: "down", timeout: 10_000 });
      expect(watch.usable()).toBe(false);
      expect(await watch.reached(await write(), 5_000)).toBe(false);
    } finally {
      await late.start();
    }
    await waitFor(() => watch.state.status === "ok", { what: "back", timeout: 20_000 });
  });
});
