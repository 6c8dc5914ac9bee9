// The production server as an operator runs it (docs/decisions/3002 to 3006, 3011): two workers,
// one JSON log line per request, the metrics port, timeouts that cut a trickling client over a
// real socket, Retry-After on every 429, and form and JSON fields cleaned at the edge.
import http from "node:http";
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, type AppProcess } from "../support/app-process";
import { freePort } from "../support/cluster";
import { waitFor, within } from "../support/wait";
import {
  bidThrough,
  liveBidder,
  liveLots,
  startLiveServer,
  streamFrom,
} from "../support/live-cluster";

let db: pg.Client;
let app: AppProcess;
let metricsPort: number;
const WORKERS = 2;
const TIMEOUTS = {
  HTTP_HEADERS_TIMEOUT_MS: "1500",
  HTTP_BODY_TIMEOUT_MS: "1500",
  HTTP_IDLE_TIMEOUT_MS: "2500",
};

beforeAll(async () => {
  await ensureBuilt();
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  metricsPort = await freePort();
  app = await startLiveServer(process.env.DATABASE_URL!, {
    WEB_CONCURRENCY: String(WORKERS),
    METRICS_PORT: String(metricsPort),
    TRUST_PROXY: "fly",
    BID_RATE_LIMIT_PER_MINUTE: "2",
    ...TIMEOUTS,
  });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await db?.end();
});

type LogLine = Record<string, unknown> & { msg?: string; level?: string };

/** The JSON lines the server wrote after `mark` (an index into its output). */
function linesAfter(mark: number): LogLine[] {
  return app
    .output()
    .slice(mark)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        return { unparsed: line };
      }
    });
}

/** Waits until the server has written `count` request lines after `mark`. */
function requestLines(mark: number, count: number) {
  return waitFor(
    () => {
      const lines = linesAfter(mark).filter((l) => l.msg === "request" && !isBarrier(l));
      return lines.length >= count && lines;
    },
    { what: `${count} request lines`, timeout: 5_000, detail: () => app.output().slice(mark) },
  );
}

const BARRIER = "01BARRIER";
const isBarrier = (line: LogLine) => String(line.req_id ?? "").startsWith(BARRIER);

/**
 * Every worker has logged a request made after the ones under test, so whatever a worker wrote
 * about those (a stack, a second line) is in the output now: one process's lines stay in order.
 * Health checks on fresh connections, spread over the workers, until each has logged one.
 */
async function everyWorkerCaughtUp(mark: number) {
  const workers = WORKERS;
  const { port } = new URL(app.url);
  let n = 0;
  await waitFor(
    async () => {
      await new Promise<void>((resolve, reject) =>
        http
          .get(
            {
              host: "127.0.0.1",
              port,
              path: "/healthz",
              agent: false,
              headers: { "Fly-Request-Id": `${BARRIER}-${(n += 1)}` },
            },
            (response) => response.resume().on("end", resolve),
          )
          .on("error", reject),
      );
      const pids = new Set(
        linesAfter(mark)
          .filter(isBarrier)
          .map((l) => l.pid),
      );
      return pids.size >= workers;
    },
    { what: `a line from each of the ${workers} workers`, timeout: 10_000 },
  );
}

describe("the request log", () => {
  it("writes one JSON line per request: Fly's request id, method, route id, status, duration, user", async () => {
    const alice = await liveBidder(db, "log-alice");
    const mark = app.output().length;
    await fetch(`${app.url}/auctions`, {
      headers: { Cookie: alice.cookie, "Fly-Request-Id": "01FLYREQUEST" },
    });
    const [line] = await requestLines(mark, 1);
    expect(line).toMatchObject({
      level: "info",
      req_id: "01FLYREQUEST",
      method: "GET",
      route: "routes/auctions._index",
      status: 200,
      user: alice.id,
    });
    expect(typeof line.ms).toBe("number");
    expect(typeof line.time).toBe("string");
    // every line the server wrote is JSON
    expect(linesAfter(mark).filter((l) => "unparsed" in l)).toEqual([]);
  });

  it("the health check, answered before the router (record 3405), keeps its answer, headers and log line", async () => {
    const mark = app.output().length;
    const answer = await fetch(`${app.url}/healthz`, { headers: { "Fly-Request-Id": "01HEALTH" } });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("OK");
    expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'");
    const head = await fetch(`${app.url}/healthz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const [line, headLine] = await requestLines(mark, 2);
    expect(headLine).toMatchObject({ method: "HEAD", route: "routes/healthz", status: 200 });
    expect(line).toMatchObject({
      req_id: "01HEALTH",
      method: "GET",
      route: "routes/healthz",
      status: 200,
    });
  });

  it("a signed-out request to an admin or data URL, or a stray ?_data, logs one line and no stack", async () => {
    const paths = [
      ["GET", "/api/admin/service-orders"],
      ["POST", "/api/admin/service-orders"],
      ["GET", "/community-vehicles?_data=root"],
      ["GET", "/admin"],
      ["GET", "/api/admin/users"],
      ["GET", "/admin/users.data"],
      ["GET", "/deposit.data"],
      ["GET", "/no-such-page"],
    ] as const;
    const mark = app.output().length;
    for (const [method, path] of paths) {
      const response = await fetch(`${app.url}${path}`, {
        method,
        redirect: "manual",
        headers: method === "POST" ? { Origin: app.url, "Content-Type": "application/json" } : {},
        body: method === "POST" ? "{}" : undefined,
      });
      expect(response.status, path).toBeLessThan(500);
      await response.arrayBuffer();
    }
    const requests = await requestLines(mark, paths.length);
    await everyWorkerCaughtUp(mark);
    const all = linesAfter(mark).filter((l) => !isBarrier(l));
    expect(all).toHaveLength(paths.length);
    expect(requests.map((l) => `${l.method} ${l.status}`)).toHaveLength(paths.length);
    expect(app.output().slice(mark)).not.toMatch(/\n\s+at |"err"|"stack"/);
    expect(all.every((l) => l.level === "info")).toBe(true);
  });

  it("an aborted POST logs one line, marked aborted, with no stack", async () => {
    const mark = app.output().length;
    const socket = net.connect(Number(new URL(app.url).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    // "Expect: 100-continue": the server's "100 Continue" says the request has reached the app
    const handedOn = new Promise((resolve) => socket.once("data", resolve));
    socket.write(
      "POST /api/bids HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
        "Expect: 100-continue\r\nContent-Length: 1000\r\n\r\n",
    );
    expect(String(await within(handedOn, { what: "100 Continue" }))).toMatch(/^HTTP\/1\.1 100/);
    socket.write('{"vehicleId":');
    socket.destroy();
    const [line] = await requestLines(mark, 1);
    expect(line).toMatchObject({ method: "POST", route: "routes/api.bids", aborted: true });
    await everyWorkerCaughtUp(mark);
    expect(linesAfter(mark).filter((l) => !isBarrier(l))).toHaveLength(1);
    expect(app.output().slice(mark)).not.toMatch(/Error: aborted|\n\s+at /);
  });
});

/** A raw connection that sends `head`, then one byte of body every `everyMs`, until closed. */
function trickle(head: string, everyMs: number) {
  const socket = net.connect(Number(new URL(app.url).port), "127.0.0.1");
  let answer = "";
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const closed = new Promise<{ answer: string; afterMs: number }>((resolve) => {
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ answer, afterMs: Date.now() - started });
    });
    socket.on("error", () => undefined);
  });
  socket.once("connect", () => {
    socket.write(head);
    timer = setInterval(() => {
      if (!socket.destroyed) socket.write("x");
    }, everyMs);
  });
  return closed;
}

describe("timeouts (a real socket that trickles)", () => {
  it("cuts a form or JSON body that trickles in: 408, then the connection is closed", async () => {
    const { answer, afterMs } = await trickle(
      "POST /api/prelaunch-signup HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" +
        "Content-Length: 100000\r\n\r\n",
      200,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    // not cut before the body deadline (1.5 s); that it is cut at all is the close itself (the
    // trickle never ends on its own), however slow the machine
    expect(afterMs).toBeGreaterThan(1_400);
  });

  it("cuts headers that trickle in", async () => {
    const socket = net.connect(Number(new URL(app.url).port), "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    // the server's close is the cut: the client keeps trickling until then
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n");
    const timer = setInterval(() => socket.destroyed || socket.write("X-A: b\r\n"), 200);
    await within(closed, { what: "the server to cut the trickling headers", timeout: 20_000 });
    clearInterval(timer);
    expect(answer).toMatch(/^HTTP\/1\.1 408|^$/);
  });

  it("cuts an upload that trickles in", async () => {
    const alice = await liveBidder(db, "trickle-upload");
    const { answer } = await trickle(
      `POST /post-vehicle HTTP/1.1\r\nHost: ${new URL(app.url).host}\r\n` +
        `Cookie: ${alice.cookie}\r\nOrigin: ${app.url}\r\n` +
        "Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: 5000000\r\n\r\n" +
        '--xyz\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\n' +
        "Content-Type: image/jpeg\r\n\r\n",
      200,
    );
    // fewer than 16 KiB in a 1.5 s window: cut (awaited above: the trickle itself never stops)
    expect(answer).toMatch(/^HTTP\/1\.1 408|^$/);
  });

  it("keeps a live event stream open past the idle timeout", async () => {
    const alice = await liveBidder(db, "idle-stream");
    const waiter = await liveBidder(db, "idle-control");
    const [lot, held] = await liveLots(db, 2);
    const controller = new AbortController();
    const response = await streamFrom(app, alice, `/live/lots/${lot}`, {
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    // the retry and the snapshot
    const first = await within(reader.read(), {
      what: "the stream's first bytes",
      timeout: 5_000,
      detail: () => app.output().slice(-3000),
    });
    expect(first.done).toBe(false);
    let ended = false;
    const reading = (async () => {
      for (;;) {
        const { done } = await reader.read().catch(() => ({ done: true }));
        if (done) break;
      }
      ended = true;
    })();
    // The yardstick: a bid sent after the stream began waits for a lot row held here, silent
    // both ways, and the same idle timeout (2.5 s) cuts its connection. Once it has, the stream
    // has been silent longer and must still be open (a health check's round trip lets a cut show).
    await db.query("begin");
    try {
      await db.query("select id from lots where id = $1 for update", [held]);
      const body = JSON.stringify({ vehicleId: held, amount: "100.00", isProxyBid: false });
      const idle = net.connect(Number(new URL(app.url).port), "127.0.0.1");
      idle.on("error", () => undefined);
      let answer = "";
      idle.on("data", (chunk) => (answer += chunk.toString("latin1")));
      const cut = new Promise((resolve) => idle.once("close", resolve));
      idle.write(
        `POST /api/bids HTTP/1.1\r\nHost: ${new URL(app.url).host}\r\n` +
          `Cookie: ${waiter.cookie}\r\n` +
          `Origin: ${app.url}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await within(cut, { what: "the idle timeout to cut the waiting bid", timeout: 12_000 });
      expect(answer, "the waiting bid was cut, not answered").toBe("");
    } finally {
      await db.query("rollback");
    }
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    expect(ended).toBe(false);
    controller.abort();
    await within(reading, { what: "the aborted stream to end" });
  });
});

describe("429", () => {
  it("says Retry-After, for a call and for a page's form", async () => {
    const bob = await liveBidder(db, "limit-bob");
    const [lot] = await liveLots(db, 1);
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await bidThrough(app, bob, lot, 100 + 50 * i));
    const limited = answers[2];
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // the lot page's own form (no JavaScript), past the same limit
    const form = await fetch(`${app.url}/auctions/${lot}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        Cookie: bob.cookie,
        Origin: app.url,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ intent: "bid", amount: "500.00" }),
    });
    expect(form.status).toBe(429);
    expect(Number(form.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("the edge cleans what people type", () => {
  it("drops control characters from JSON and form fields before the app stores them", async () => {
    const seller = await liveBidder(db, "edge-seller");
    const buyer = await liveBidder(db, "edge-buyer");
    const posted = await fetch(`${app.url}/api/vehicles`, {
      method: "POST",
      headers: { Cookie: seller.cookie, Origin: app.url, "Content-Type": "application/json" },
      body: JSON.stringify({
        title: "2015 Honda\r\nBcc: victim@x.test",
        description: "Runs.\r\nDrives.\u0007",
        make: "Honda",
        model: "Civic",
        year: "2015",
        mileage: "90000",
        price: "9000",
        currency: "USD",
        condition: "good",
        bodyType: "sedan",
        country: "US",
        state: "TX",
        city: "Dallas\u0000",
        zipCode: "75201",
      }),
    });
    expect(posted.status, await posted.clone().text()).toBe(201);
    const { id } = (await posted.json()) as { id: string };
    const {
      rows: [listing],
    } = await db.query("SELECT title, description, city FROM listings WHERE id = $1", [id]);
    expect(listing).toEqual({
      title: "2015 Honda Bcc: victim@x.test",
      description: "Runs.\nDrives.",
      city: "Dallas",
    });

    const sent = await fetch(`${app.url}/messages/new?listing=${id}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        Cookie: buyer.cookie,
        Origin: app.url,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ body: "Hello\r\nis it\u001b[31m still there?\u202E" }),
    });
    expect(sent.status).toBe(302);
    const {
      rows: [message],
    } = await db.query("SELECT body FROM messages WHERE sender_id = $1", [buyer.id]);
    expect(message.body).toBe("Hello\nis it[31m still there?");
  });
});

describe("metrics", () => {
  it("serves the workers' metrics summed on the metrics port", async () => {
    const mark = app.output().length;
    const before = await scrape();
    const count = (text: string) =>
      Number(
        /^bidyard_http_request_duration_seconds_count\{method="GET",route="routes\/healthz",status="200"\} (\d+)/m.exec(
          text,
        )?.[1] ?? 0,
      );
    // a new connection each time: the primary hands connections to the workers in turn
    for (let i = 0; i < 20; i += 1)
      await new Promise((resolve, reject) =>
        http
          .get(`${app.url}/healthz`, { agent: false }, (res) => res.resume().on("end", resolve))
          .on("error", reject),
      );
    const lines = await requestLines(mark, 20);
    // both workers served some of them, and the metric counts all of them
    expect(new Set(lines.map((l) => l.pid)).size).toBe(2);
    const after = await scrape();
    expect(count(after) - count(before)).toBe(20);
    for (const name of [
      "bidyard_http_request_duration_seconds_bucket",
      "bidyard_bids_total",
      "bidyard_live_streams_open",
      "bidyard_mail_outbox_depth",
      "bidyard_jobs_waiting",
      "bidyard_jobs_oldest_waiting_seconds",
      "bidyard_jobs_failed",
      "bidyard_auction_close_lag_seconds",
      "bidyard_db_pool_connections",
      "bidyard_db_pool_waiting",
      "bidyard_db_pool_acquire_seconds_bucket",
      "bidyard_rate_limited_total",
      // counters shown at zero before their first event: a machine that has not closed a lot or
      // refused a stream still reports them
      'bidyard_auction_lots_closed_total{result="sold"}',
      'bidyard_live_streams_refused_total{reason="cap"}',
      "nodejs_eventloop_lag_seconds",
      "bidyard_server_resident_memory_bytes",
      "bidyard_server_memory_bytes",
      "bidyard_workers 2",
    ])
      expect(after, name).toContain(name);
    expect(after).toMatch(/bidyard_bids_total\{outcome="placed",reason=""\} [1-9]/);
    expect(after).toMatch(/bidyard_bids_total\{outcome="refused",reason="rate_limited"\} [1-9]/);
  });
});

async function scrape() {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
}
