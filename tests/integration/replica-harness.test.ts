// The two-region harness proves itself: a streaming replica of a primary (and one that applies
// late), a TCP proxy that puts the primary a round trip away, and the fly-replay edge proxy.
import http from "node:http";
import type net from "node:net";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startThrowawayCluster } from "../support/cluster";
import { delayedTcp, regionProxy } from "../support/regions";
import { startReplica, type Replica } from "../support/replica";
import { waitFor, within } from "../support/wait";

type Cluster = Awaited<ReturnType<typeof startThrowawayCluster>>;

async function connect(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

describe("a streaming replica of the primary", () => {
  let primary: Cluster;
  let replica: Replica;
  let late: Replica;
  let onPrimary: pg.Client;
  let onReplica: pg.Client;
  let onLate: pg.Client;

  beforeAll(async () => {
    primary = await startThrowawayCluster("replica-harness");
    onPrimary = await connect(primary.urlFor("postgres"));
    await onPrimary.query("create table notes (id serial primary key, body text not null)");
    [replica, late] = await Promise.all([
      startReplica(primary, { name: "near" }),
      startReplica(primary, { name: "late", applyDelayMs: 1500 }),
    ]);
    onReplica = await connect(replica.urlFor("postgres"));
    onLate = await connect(late.urlFor("postgres"));
  });

  afterAll(async () => {
    await Promise.all([onPrimary, onReplica, onLate].map((c) => c?.end().catch(() => undefined)));
    await Promise.all([replica?.remove(), late?.remove()]);
    await primary?.remove();
  });

  const notesWith = async (client: pg.Client, body: string) =>
    (await client.query("select id from notes where body = $1", [body])).rowCount;

  it("is a hot standby that shows a row written on the primary, and refuses writes", async () => {
    const { rows } = await onReplica.query<{ recovering: boolean }>(
      "select pg_is_in_recovery() as recovering",
    );
    expect(rows[0]!.recovering).toBe(true);
    const { rows: sent } = await onPrimary.query<{ application_name: string; state: string }>(
      "select application_name, state from pg_stat_replication where application_name = $1",
      [replica.slot],
    );
    expect(sent).toEqual([{ application_name: replica.slot, state: "streaming" }]);

    await onPrimary.query("insert into notes (body) values ('near one')");
    await waitFor(async () => (await notesWith(onReplica, "near one")) === 1, {
      what: "the primary's row on the replica",
    });

    const write = await onReplica
      .query("insert into notes (body) values ('on the replica')")
      .then(() => null)
      .catch((error: { code?: string }) => error);
    expect(write?.code).toBe("25006"); // read_only_sql_transaction
  });

  it("replays up to the primary's insert position", async () => {
    await onPrimary.query(
      "insert into notes (body) select 'bulk ' || n from generate_series(1, 500) n",
    );
    const { rows } = await onPrimary.query<{ lsn: string }>(
      "select pg_current_wal_insert_lsn()::text as lsn",
    );
    const target = rows[0]!.lsn;
    const reached = await waitFor(
      async () => {
        const lsn = await replica.replayLsn();
        if (!lsn) return null;
        const { rows: diff } = await onPrimary.query<{ behind: string }>(
          "select pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::text as behind",
          [lsn, target],
        );
        return Number(diff[0]!.behind) >= 0 ? lsn : null;
      },
      { what: `the replica's replay position reaching ${target}` },
    );
    expect(reached).toBeTruthy();
    expect(
      (await onReplica.query("select count(*)::int as n from notes where body like 'bulk %'"))
        .rows[0].n,
    ).toBe(500);
  });

  it("with an apply delay, shows a commit only that long after it was made", async () => {
    const started = performance.now();
    await onPrimary.query("insert into notes (body) values ('late one')");
    // the near replica has it well before the late one may
    await waitFor(async () => (await notesWith(onReplica, "late one")) === 1, {
      what: "the row on the near replica",
    });
    expect(await notesWith(onLate, "late one")).toBe(0);
    await waitFor(async () => (await notesWith(onLate, "late one")) === 1, {
      what: "the row on the late replica",
      timeout: 10_000,
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1500);
  });

  it("starts again after a stop and catches up on what it missed", async () => {
    await onReplica.end(); // a connection the standby's shutdown ends would raise an error
    await replica.stop();
    await onPrimary.query("insert into notes (body) values ('while stopped')");
    await replica.start();
    onReplica = await connect(replica.urlFor("postgres"));
    await waitFor(async () => (await notesWith(onReplica, "while stopped")) === 1, {
      what: "the row written while the replica was stopped",
    });
  });

  it("puts the primary a round trip away through delayedTcp, bytes in order", async () => {
    const delay = 120;
    const proxy = await delayedTcp({ host: "127.0.0.1", port: primary.port }, delay);
    const far = new pg.Client({
      host: "127.0.0.1",
      port: proxy.port,
      user: "postgres",
      password: "postgres",
      database: "postgres",
    });
    try {
      await far.connect();
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const before = performance.now();
        await far.query("select 1");
        times.push(performance.now() - before);
      }
      for (const time of times) expect(time).toBeGreaterThanOrEqual(delay);
      // a large answer in many chunks arrives whole and in order
      const { rows } = await far.query<{ n: number; pad: string }>(
        "select n, repeat('x', 100) || n as pad from generate_series(1, 20000) n",
      );
      expect(rows).toHaveLength(20000);
      rows.forEach((row, i) => {
        expect(row.n).toBe(i + 1);
        expect(row.pad).toBe(`${"x".repeat(100)}${i + 1}`);
      });
    } finally {
      await far.end().catch(() => undefined);
      await proxy.close();
    }
  });
});

describe("regionProxy, Fly's edge near a buyer", () => {
  type Seen = {
    method: string;
    url: string;
    body: string;
    bytes: number;
    headers: http.IncomingHttpHeaders;
    at: number;
  };
  const seen: Record<string, Seen[]> = { ams: [], dfw: [] };
  let endStream: (() => void) | undefined;
  let streamEnded = false;
  const servers: http.Server[] = [];
  let proxy: Awaited<ReturnType<typeof regionProxy>>;
  const DFW_DELAY = 250;

  // A region's instance: /write and /big are for the primary's region (ams replays them to dfw);
  // /live/feed is an event stream ended by the test.
  const instance = (region: string) =>
    http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks);
        seen[region]!.push({
          method: request.method!,
          url: request.url!,
          body: body.length < 4096 ? body.toString() : "",
          bytes: body.length,
          headers: request.headers,
          at: performance.now(),
        });
        if (region === "ams" && (request.url === "/write" || request.url === "/big")) {
          response.writeHead(409, { "fly-replay": "region=dfw;state=from-ams" });
          response.end("not here");
          return;
        }
        if (request.url === "/live/feed") {
          response.writeHead(200, { "content-type": "text/event-stream" });
          response.write("data: one\n\n");
          endStream = () => {
            response.end("data: two\n\n");
            streamEnded = true;
          };
          return;
        }
        response.writeHead(200, { "content-type": "text/plain", "x-region": region });
        response.end(`${region} got ${request.method} ${request.url} ${body.length}`);
      });
    });

  beforeAll(async () => {
    const urls: Record<string, string> = {};
    for (const region of ["ams", "dfw"]) {
      const server = instance(region);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      servers.push(server);
      urls[region] = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    }
    proxy = await regionProxy({ regions: urls, entry: "ams", delayMs: { dfw: DFW_DELAY, ams: 0 } });
  });

  afterAll(async () => {
    await proxy?.close();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("serves a request in the entry region, keeping Host and naming the client", async () => {
    const answer = await fetch(`${proxy.url}/page`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("ams got GET /page 0");
    const request = seen.ams!.at(-1)!;
    expect(request.headers.host).toBe(new URL(proxy.url).host);
    expect(request.headers["x-forwarded-proto"]).toBe("http");
    expect(request.headers["fly-client-ip"]).toBe("127.0.0.1");
    expect(request.headers["fly-replay-src"]).toBeUndefined();
    expect(proxy.served.at(-1)).toEqual({
      method: "GET",
      path: "/page",
      region: "ams",
      replayed: false,
    });
  });

  it("replays a fly-replay answer to the named region with the POST body, after its delay", async () => {
    const body = "amount=125&lot=7";
    const answer = await fetch(`${proxy.url}/write`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: proxy.url },
      body,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-region")).toBe("dfw");
    expect(answer.headers.get("fly-replay")).toBeNull();
    expect(await answer.text()).toBe(`dfw got POST /write ${body.length}`);

    const atAms = seen.ams!.at(-1)!;
    const atDfw = seen.dfw!.at(-1)!;
    expect(atAms).toMatchObject({ method: "POST", url: "/write", body });
    expect(atDfw).toMatchObject({ method: "POST", url: "/write", body });
    expect(atDfw.headers["fly-replay-src"]).toBe("instance=ams-1;region=ams;state=from-ams");
    expect(atDfw.headers.origin).toBe(proxy.url);
    expect(atDfw.headers.host).toBe(new URL(proxy.url).host);
    expect(atDfw.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(atDfw.at - atAms.at).toBeGreaterThanOrEqual(DFW_DELAY);
    expect(proxy.served.at(-1)).toEqual({
      method: "POST",
      path: "/write",
      region: "dfw",
      replayed: true,
    });
  });

  it("replays a body of up to 1 MB, and answers 502 for a larger one it streamed on", async () => {
    const justUnder = Buffer.alloc(1024 * 1024, "a");
    const replayed = await fetch(`${proxy.url}/big`, { method: "POST", body: justUnder });
    expect(replayed.status).toBe(200);
    expect(await replayed.text()).toBe(`dfw got POST /big ${justUnder.length}`);
    expect(seen.dfw!.at(-1)!.bytes).toBe(justUnder.length);

    const dfwBefore = seen.dfw!.length;
    const over = Buffer.alloc(1024 * 1024 + 1, "b");
    const refused = await fetch(`${proxy.url}/big`, { method: "POST", body: over });
    expect(refused.status).toBe(502);
    expect(await refused.text()).toBe("body too large to replay");
    expect(seen.ams!.at(-1)!.bytes).toBe(over.length); // the entry instance got all of it
    expect(seen.dfw!.length).toBe(dfwBefore);
  });

  it("lets an event stream flow before it ends", async () => {
    streamEnded = false;
    const answer = await fetch(`${proxy.url}/live/feed`);
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    const reader = answer.body!.getReader();
    const decoder = new TextDecoder();
    const first = await within(reader.read(), { what: "the stream's first event", timeout: 5000 });
    expect(decoder.decode(first.value)).toBe("data: one\n\n");
    expect(streamEnded).toBe(false);
    endStream!();
    let rest = "";
    for (;;) {
      const { done, value } = await within(reader.read(), { what: "the rest of the stream" });
      if (done) break;
      rest += decoder.decode(value);
    }
    expect(rest).toBe("data: two\n\n");
  });
});
