// The production server as it runs off Fly (no TRUST_PROXY): who a caller is for the rate limits,
// how big a body may be, which headers every answer carries, and how maintenance and a database
// outage are answered by every route. Its own PostgreSQL, so the outage can be real.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import net from "node:net";
import { createCookie } from "@remix-run/node";
import pg from "pg";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalCluster } from "../../db/postgres";
import { ensureBuilt, startApp, waitFor200, type AppProcess } from "../support/app-process";
import { freePort, startThrowawayCluster } from "../support/cluster";
import { createDatabase, migrateDatabase } from "../support/databases";
import { treeKb } from "../support/process-memory";

const SECRET = "hardening-test-secret-0123456789abcdefghij";
let cluster: Awaited<ReturnType<typeof startThrowawayCluster>>;
let app: AppProcess;
let db: pg.Client;
let userCookie: string;
let adminCookie: string;

async function sessionFor(email: string, role = "user") {
  const token = randomBytes(32).toString("base64url");
  const {
    rows: [user],
  } = await db.query("insert into users (email, role) values ($1, $2) returning id", [email, role]);
  await db.query(
    "insert into sessions (id, user_id, expires_at) values ($1, $2, now() + interval '1 hour')",
    [createHash("sha256").update(token).digest("hex"), user.id],
  );
  const signed = await createCookie("__session", { secrets: [SECRET] }).serialize(token);
  return signed.split(";")[0];
}

beforeAll(async () => {
  await ensureBuilt();
  cluster = await startThrowawayCluster("hardening");
  await createDatabase(cluster.urlFor("postgres"), "bidyard");
  const url = cluster.urlFor("bidyard");
  await migrateDatabase(url);
  db = new pg.Client({ connectionString: url });
  await db.connect();
  userCookie = await sessionFor("someone@bidyard.test");
  adminCookie = await sessionFor("admin@bidyard.test", "admin");
  app = startApp(
    {
      NODE_ENV: "production",
      DATABASE_URL: url,
      SESSION_SECRET: SECRET,
      APP_URL: "http://localhost",
      OIDC_ISSUER: "https://id.bidyard.example",
      OIDC_CLIENT_ID: "bidyard",
      OIDC_CLIENT_SECRET: "client-secret",
      ALLOW_TEST_PAYMENTS: "true",
      // one server on this machine, its files on its disk (docs/decisions/3105)
      FILE_STORAGE: "local",
      // the outage below is met by every answer, not by settings kept from a moment before
      SETTINGS_MEMORY_MS: "0",
    },
    await freePort(),
  );
  await waitFor200(`${app.url}/healthz`, app);
}, 120_000);

afterAll(async () => {
  await db?.end().catch(() => undefined);
  await app?.stop();
  await cluster?.remove();
});

/** A request from a chosen local address (127.0.0.x), with a raw body written as given. */
function send(
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    from?: string;
  } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const target = new URL(path, app.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? (options.body === undefined ? "GET" : "POST"),
        headers: { host: target.host, ...options.headers },
        localAddress: options.from ?? "127.0.0.1",
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode!, headers: response.headers, text }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

const signup = (email: string, from: string, spoofed: string) =>
  send("/api/prelaunch-signup", {
    from,
    headers: { "content-type": "application/json", "fly-client-ip": spoofed },
    body: JSON.stringify({ email }),
  });

describe("rate limits off Fly", () => {
  it("key on the socket's address: a rotated Fly-Client-IP does not buy a new bucket", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await signup(`rotate-${i}@example.com`, "127.0.0.2", `203.0.113.${i + 1}`);
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    // Another caller is not held back by the first one's spending (no shared "direct" bucket).
    expect((await signup("other@example.com", "127.0.0.3", "203.0.113.1")).status).toBe(201);
  });

  it("are counted before the body is read: broken bodies spend the budget too", async () => {
    for (let i = 0; i < 5; i++) {
      const broken = await send("/api/prelaunch-signup", {
        from: "127.0.0.4",
        headers: { "content-type": "application/json" },
        body: "{not json",
      });
      expect(broken.status).toBe(400);
    }
    expect((await signup("late@example.com", "127.0.0.4", "")).status).toBe(429);
  });
});

/**
 * Posts a body bigger than the cap over a plain socket and answers the status line's code. The
 * server answers before the body is all sent, so the client's writes may outlive the connection:
 * a failed write is not the answer, only the status line the server sent is (or, without one, the
 * error that closed the connection). Without a declared length the body goes out chunked.
 */
function oversizedPost(headers: Record<string, string>, chunks: Buffer[]) {
  const { hostname, port } = new URL(app.url);
  const chunked = !("content-length" in headers);
  return new Promise<number>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    let failure: Error | undefined;
    socket.on("data", (data) => {
      received += data.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(received);
      if (status) {
        resolve(Number(status[1]));
        socket.destroy();
      }
    });
    socket.on("error", (error) => (failure = error));
    socket.on("close", () =>
      reject(
        failure ?? new Error(`closed before a status line (received: ${received || "nothing"})`),
      ),
    );
    const head = Object.entries({
      host: `${hostname}:${port}`,
      ...headers,
      ...(chunked ? { "transfer-encoding": "chunked" } : {}),
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(`POST /api/prelaunch-signup HTTP/1.1\r\n${head}\r\n`);
    for (const chunk of chunks) {
      if (chunked) socket.write(`${chunk.length.toString(16)}\r\n`);
      socket.write(chunk);
      if (chunked) socket.write("\r\n");
    }
  });
}

describe("request bodies", () => {
  it("a 100 MB body to a signed-out call is a 413 at once, and the server does not grow", async () => {
    // The peak (VmHWM), so memory taken and given back in between counts too.
    const before = treeKb(app.proc.pid!, "VmHWM") / 1024;
    // Only the first megabyte is ever written: an answer that waited for the rest would never
    // come but as the body timeout's 408 (HTTP_BODY_TIMEOUT_MS), so a 413 is the answer at once.
    const answer = await oversizedPost(
      { "content-type": "application/json", "content-length": String(100 * 1024 * 1024) },
      [Buffer.alloc(1024 * 1024, 0x20)],
    );
    expect(answer).toBe(413);

    // Without a declared length the bytes are counted as they stream in.
    const streamed = await oversizedPost(
      { "content-type": "application/json" },
      Array.from({ length: 8 }, () => Buffer.alloc(256 * 1024, 0x20)),
    );
    expect(streamed).toBe(413);
    const after = treeKb(app.proc.pid!, "VmHWM") / 1024;
    expect(after - before).toBeLessThan(50);
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });

  it("a body within the cap still works, as JSON and as a form", async () => {
    const json = await send("/api/prelaunch-signup", {
      from: "127.0.0.5",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "fits@example.com", padding: "x".repeat(10_000) }),
    });
    expect(json.status).toBe(201);
    const form = await send("/api/prelaunch-signup", {
      from: "127.0.0.5",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "form@example.com" }).toString(),
    });
    expect(form.status).toBe(303);
  });
});

describe("security headers on every answer", () => {
  it("JSON, CSV, plain-text errors and assets are nosniff and run nothing if opened", async () => {
    const answers = [
      await send("/api/vehicles"),
      await send("/api/auth/user", { headers: { cookie: userCookie } }),
      await send("/admin/early-access.csv", { headers: { cookie: adminCookie } }),
      await send("/listing-photos/00000000-0000-0000-0000-000000000000"),
      await send("/favicon.svg"),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 404, 200]);
    expect(answers[2].headers["content-type"]).toMatch(/text\/csv/);
    for (const answer of answers) {
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["content-security-policy"]).toBe(
        "sandbox; default-src 'none'; frame-ancestors 'none'",
      );
    }
    // Pages keep their own policy (with its nonce), not the sandbox.
    const page = await send("/");
    expect(page.headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
  });
});

/** Turns maintenance on or off as an admin does (the settings call), seen by the next answer. */
async function maintenance(on: boolean) {
  const answer = await send("/api/admin/settings", {
    headers: { cookie: adminCookie, origin: app.url, "content-type": "application/json" },
    body: JSON.stringify({ maintenanceMode: on }),
  });
  expect(answer.status, answer.text).toBe(200);
  expect(JSON.parse(answer.text)).toMatchObject({ maintenanceMode: on });
}

describe("maintenance mode", () => {
  afterAll(() => maintenance(false));

  it("gates /api calls and form posts too; admins, sign-in and health stay open", async () => {
    await maintenance(true);
    const call = await send("/api/vehicles", { headers: { cookie: userCookie } });
    expect(call.status).toBe(503);
    expect(call.headers["retry-after"]).toBe("300");
    expect(JSON.parse(call.text).message).toMatch(/scheduled maintenance/);
    const post = await send("/api/prelaunch-signup", {
      from: "127.0.0.6",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "during@example.com" }),
    });
    expect(post.status).toBe(503);
    const form = await send("/api/beta-banner", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "redirectTo=/",
    });
    expect(form.status).toBe(503);
    expect((await send("/", { headers: { cookie: userCookie } })).status).toBe(503);

    expect((await send("/api/vehicles", { headers: { cookie: adminCookie } })).status).toBe(200);
    expect((await send("/api/auth/user", { headers: { cookie: userCookie } })).status).toBe(200);
    // (the issuer of this test does not exist: sign-in answers its own error, not maintenance)
    expect((await send("/api/login")).text).not.toMatch(/scheduled maintenance/);
    expect((await send("/healthz")).status).toBe(200);
  });
});

describe("the maintenance page", () => {
  afterAll(() => maintenance(false));

  it("knows who is signed in and offers nothing that leads back to itself, with JS on and off", async () => {
    await maintenance(true);
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
    try {
      for (const javaScriptEnabled of [true, false]) {
        for (const signedIn of [true, false]) {
          const context = await browser.newContext({ javaScriptEnabled });
          if (signedIn) {
            const [name, value] = userCookie.split("=");
            await context.addCookies([{ name, value, url: app.url }]);
          }
          const page = await context.newPage();
          const answer = await page.goto(`${app.url}/auctions`);
          const where = `JS ${javaScriptEnabled ? "on" : "off"}, ${signedIn ? "signed in" : "signed out"}`;
          expect(answer?.status(), where).toBe(503);
          if (javaScriptEnabled)
            await page.waitForFunction(
              () =>
                (window as unknown as { __remixRouter?: { state: { initialized: boolean } } })
                  .__remixRouter?.state.initialized === true,
            );
          const body = await page.locator("body").innerText();
          expect(body, `${where}: ${page.url()}\n${body}`).toContain("Down for maintenance");
          expect(body, where).not.toMatch(/Sign In|Register|home page/);
          if (signedIn) {
            await expect
              .poll(() => page.getByTestId("user-label").textContent())
              .toBe("someone@bidyard.test");
            expect(await page.getByRole("button", { name: "Sign out" }).count(), where).toBe(1);
          }
          // it reloads itself when Retry-After is up
          expect(await page.locator('meta[http-equiv="refresh"]').getAttribute("content")).toBe(
            "300",
          );
          // every link and form on the page reaches something other than this same page (here
          // the sign-in link meets an issuer that does not exist: its own error, not maintenance)
          const links = await page
            .locator("a[href]")
            .evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
          const forms = await page
            .locator("form")
            .evaluateAll((fs) => fs.map((f) => f.getAttribute("action")!));
          expect(forms, where).toEqual(signedIn ? ["/api/logout"] : []);
          for (const href of links.filter((h) => !h.startsWith("#"))) {
            const target = await send(href, signedIn ? { headers: { cookie: userCookie } } : {});
            expect(target.text, `${where}: ${href}`).not.toMatch(/scheduled maintenance/);
          }
          await context.close();
        }
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe("a database outage", () => {
  it("every page and call answers 503 with Retry-After, never a 500", async () => {
    await db.end();
    await cluster.stop();
    try {
      const targets: Array<[string, string | undefined]> = [
        ["/", undefined],
        ["/community-vehicles", undefined],
        ["/community-vehicles", userCookie],
        ["/dashboard", userCookie],
        ["/notifications", userCookie],
        ["/api/vehicles", undefined],
        ["/api/vehicles?status=live", undefined],
        ["/api/auth/user", userCookie],
        ["/listing-photos/00000000-0000-0000-0000-000000000000", undefined],
      ];
      for (const [path, cookie] of targets) {
        const answer = await send(path, { headers: cookie ? { cookie } : {} });
        expect(answer.status, `${path} ${cookie ? "signed in" : ""}`).toBe(503);
        expect(answer.headers["retry-after"], path).toBeTruthy();
        expect(answer.text, path).toContain("briefly unavailable");
      }
      const post = await send("/api/prelaunch-signup", {
        from: "127.0.0.7",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "outage@example.com" }),
      });
      expect(post.status).toBe(503);
    } finally {
      await startLocalCluster({ dataDir: cluster.dataDir, port: cluster.port });
    }
    db = new pg.Client({ connectionString: cluster.urlFor("bidyard") });
    await db.connect();
  });
});
