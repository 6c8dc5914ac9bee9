// PostgreSQL stopped and started again under a running production server: while it is down the
// app answers a clear 503 (pages and calls alike); once it is back, the same server recovers.
import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalCluster } from "../../db/postgres";
import { ensureBuilt, startApp, waitFor200, type AppProcess } from "../support/app-process";
import { freePort, startThrowawayCluster } from "../support/cluster";
import { createDatabase, migrateDatabase } from "../support/databases";
import { waitFor } from "../support/wait";

const SECRET = "outage-test-secret-0123456789abcdefghij";
let cluster: Awaited<ReturnType<typeof startThrowawayCluster>>;
let app: AppProcess;
let cookie: string;

beforeAll(async () => {
  await ensureBuilt();
  cluster = await startThrowawayCluster("outage");
  await createDatabase(cluster.urlFor("postgres"), "bidyard");
  const url = cluster.urlFor("bidyard");
  await migrateDatabase(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const token = randomBytes(32).toString("base64url");
  const {
    rows: [user],
  } = await client.query("insert into users (email) values ('outage@bidyard.test') returning id");
  await client.query(
    "insert into sessions (id, user_id, expires_at) values ($1, $2, now() + interval '1 hour')",
    [createHash("sha256").update(token).digest("hex"), user.id],
  );
  await client.end();
  const signed = await createCookie("__session", { secrets: [SECRET] }).serialize(token);
  cookie = signed.split(";")[0];

  app = startApp(
    {
      NODE_ENV: "production",
      DATABASE_URL: url,
      SESSION_SECRET: SECRET,
      APP_URL: "https://bidyard.example",
      OIDC_ISSUER: "https://id.bidyard.example",
      OIDC_CLIENT_ID: "bidyard",
      OIDC_CLIENT_SECRET: "client-secret",
      PAYPAL_CLIENT_ID: "paypal-id",
      PAYPAL_CLIENT_SECRET: "paypal-secret",
      // one server on this machine, its files on its disk (docs/decisions/3105)
      FILE_STORAGE: "local",
    },
    await freePort(),
  );
  await waitFor200(`${app.url}/healthz`, app);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await cluster?.remove();
});

describe("a database outage", () => {
  it("answers 503 while PostgreSQL is down and recovers without a restart", async () => {
    const page = () => fetch(app.url, { headers: { Cookie: cookie } });
    const call = () =>
      fetch(`${app.url}/api/auth/user`, {
        headers: { Cookie: cookie, Accept: "application/json" },
      });
    expect((await page()).status).toBe(200);
    expect((await call()).status).toBe(200);

    await cluster.stop();
    const down = await page();
    expect(down.status).toBe(503);
    expect(await down.text()).toContain("briefly unavailable");
    const downCall = await call();
    expect(downCall.status).toBe(503);
    expect(((await downCall.json()) as { message: string }).message).toContain(
      "briefly unavailable",
    );
    expect((await fetch(`${app.url}/healthz`)).status).toBe(503);
    expect(app.proc.exitCode).toBeNull();

    await startLocalCluster({ dataDir: cluster.dataDir, port: cluster.port });
    // back without a restart: the same process answers again once its pool reconnects
    await waitFor(async () => (await page()).status === 200, {
      what: "the page answered again",
      timeout: 10_000,
      every: 200,
      detail: app.output,
    });
    const user = (await (await call()).json()) as { email: string };
    expect(user.email).toBe("outage@bidyard.test");
  });
});
