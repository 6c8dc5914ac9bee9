// Outside the primary region, the pages that opt in read a replica (docs/decisions/3701). Here the
// "replica" is the test's own database reached through read-only connections
// (default_transaction_read_only), so any write a replica-read page made would fail as it would on
// a hot standby (SQLSTATE 25006). The streaming replica itself is tested in regions-two-regions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sequelize } from "sequelize";
import { routeModuleFiles, paramsFor } from "../support/route-files";
import { ROUTE_ACCESS } from "../support/route-access";

// The region settings must be in place before the app's pool is made (on its first import), so
// every app module is imported below, after them.
const saved = {
  PRIMARY_REGION: process.env.PRIMARY_REGION,
  FLY_REGION: process.env.FLY_REGION,
  DATABASE_REPLICA_URL: process.env.DATABASE_REPLICA_URL,
};
process.env.PRIMARY_REGION = "dfw";
process.env.FLY_REGION = "ams";
process.env.DATABASE_REPLICA_URL = `${process.env.DATABASE_URL}?options=${encodeURIComponent(
  "-c default_transaction_read_only=on",
)}`;

const { sequelize, sql } = await import("~/models/db.server");
const { readingReplica } = await import("~/models/replica.server");
const { guardLoader } = await import("~/http/route-guards.server");
const { createTestUser, requestAs } = await import("../support/auth");
const { createTestLot } = await import("../support/lots");
const { createTestListing } = await import("../support/listings");
const { call } = await import("../support/routes");

type Handler = Parameters<typeof call>[0];
type RouteModule = { loader?: Handler; action?: Handler; handle?: { reads?: string } };

/** Which pool each connection Sequelize hands out came from, while `record` is on. */
const taken: Array<"read" | "write"> = [];
let record = false;
function watchPools(db: Sequelize) {
  db.addHook("afterPoolAcquire", (connection) => {
    if (record) taken.push((connection as { queryType?: "read" | "write" }).queryType ?? "write");
  });
}

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("a machine outside the primary region", () => {
  let lotId: string;
  let listingId: string;
  let bidder: Awaited<ReturnType<typeof createTestUser>>;

  beforeAll(async () => {
    watchPools(sequelize);
    bidder = await createTestUser();
    lotId = String((await createTestLot()).id);
    listingId = String((await createTestListing(await createTestUser())).id);
  });

  /** The route's URL from the access list, with ids that exist where the route takes one. */
  function pathOf(name: string) {
    const path = ROUTE_ACCESS[name]?.path ?? "/";
    if (name.startsWith("auctions.$lotId") || name.startsWith("live.lots.$lotId"))
      return path.replace(/\/(auctions|live\/lots)\/[^/?]+/, `/$1/${lotId}`);
    if (name.startsWith("vehicle.$id"))
      return path.replace(/\/vehicle\/[^/?]+/, `/vehicle/${listingId}`);
    if (name === "live.auctions.ts") return `/live/auctions?lots=${lotId}`;
    return path;
  }

  it("serves every replica-read page's loader from read-only connections, writing nothing", async () => {
    const pages = [];
    for (const { name, file } of routeModuleFiles()) {
      const module = (await import(/* @vite-ignore */ file)) as RouteModule;
      // a "replica-signed-out" route reads the replica for visitors only (the edge replays it for
      // anyone with a session cookie)
      const reads = module.handle?.reads;
      if (reads === "replica" || reads === "replica-signed-out")
        pages.push({ name, module, visitorsOnly: reads === "replica-signed-out" });
    }
    const root = (await import("~/root")) as RouteModule;
    expect(pages.length).toBeGreaterThanOrEqual(20);

    const failures: string[] = [];
    record = true;
    try {
      for (const { name, module, visitorsOnly } of pages) {
        if (!module.loader) continue;

        for (const person of visitorsOnly ? [null] : [null, bidder]) {
          const path = pathOf(name);
          const params = paramsFor(name, path);
          const replica = { replicaFailed: false };
          for (const loader of [root.loader!, module.loader]) {
            const controller = new AbortController();
            const request = await requestAs(person, path, { signal: controller.signal });
            const answer = await readingReplica(() => call(loader, request, params), replica);
            const who = person ? "a bidder" : "a visitor";
            if (answer.status >= 500)
              failures.push(`${name} for ${who}: ${answer.status} ${await answer.text()}`);
            // a live stream's answer stays open: close it
            controller.abort();
            await answer.body?.cancel().catch(() => undefined);
            if (replica.replicaFailed) failures.push(`${name} for ${who}: the replica failed it`);
          }
        }
      }
    } finally {
      record = false;
    }
    expect(failures).toEqual([]);
    // the pages did read the replica (a listing that read nothing there would pass too)
    expect(taken.filter((pool) => pool === "read").length).toBeGreaterThan(pages.length);
  });

  it("runs every action on the primary, even inside a request that reads the replica", async () => {
    const actions: string[] = [];
    const onReplica: string[] = [];
    for (const { name, file } of routeModuleFiles()) {
      const module = (await import(/* @vite-ignore */ file)) as RouteModule;
      if (!module.action) continue;
      actions.push(name);
      const path = pathOf(name);
      const request = await requestAs(bidder, path, { method: "POST", form: { intent: "x" } });
      taken.length = 0;
      record = true;
      try {
        await readingReplica(() => call(module.action!, request, paramsFor(name, path))).catch(
          () => undefined,
        );
      } finally {
        record = false;
      }
      if (taken.includes("read")) onReplica.push(name);
    }
    expect(actions.length).toBeGreaterThan(50);
    expect(onReplica).toEqual([]);
  });

  it("turns a write refused by the replica into a replay, and reads the primary for a statement that asks", async () => {
    const request = await requestAs(null, "/auctions");
    const replica = { replicaFailed: false };
    const refused = await readingReplica(
      () =>
        guardLoader({ request }, () =>
          sql("INSERT INTO rate_limits (key, points, expire) VALUES ('replica-test', 1, null)"),
        ).catch((thrown: unknown) => thrown),
      replica,
    );
    // the guard's outage answer, which the edge replaces with `fly-replay` (never a 500)
    expect((refused as Response).status).toBe(503);
    expect(replica.replicaFailed).toBe(true);

    const [{ read_only: onReplica }] = await readingReplica(() =>
      sql<{ read_only: string }>("SELECT current_setting('transaction_read_only') AS read_only"),
    );
    const [{ read_only: asked }] = await readingReplica(() =>
      sql<{ read_only: string }>(
        "SELECT current_setting('transaction_read_only') AS read_only",
        [],
        { primary: true },
      ),
    );
    const [{ read_only: outside }] = await sql<{ read_only: string }>(
      "SELECT current_setting('transaction_read_only') AS read_only",
    );
    expect([onReplica, asked, outside]).toEqual(["on", "off", "off"]);
  });
});
