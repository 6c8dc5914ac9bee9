// What the Docker image does, without Docker: the production build started with `npm start` (server/)
// under NODE_ENV=production against a migrated database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, startApp, waitFor200, type AppProcess } from "../support/app-process";
import { freePort } from "../support/cluster";

const productionEnv = () => ({
  NODE_ENV: "production",
  DATABASE_URL: process.env.DATABASE_URL!,
  SESSION_SECRET: "production-test-secret-0123456789abcdef",
  APP_URL: "https://bidyard.example",
  OIDC_ISSUER: "https://id.bidyard.example",
  OIDC_CLIENT_ID: "bidyard",
  OIDC_CLIENT_SECRET: "client-secret",
  PAYPAL_CLIENT_ID: "paypal-id",
  PAYPAL_CLIENT_SECRET: "paypal-secret",
  // one machine, files on its disk, said outright (docs/decisions/3105)
  FILE_STORAGE: "local",
});

describe("production start", () => {
  const apps: AppProcess[] = [];
  beforeAll(ensureBuilt, 120_000);
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
  });

  it("serves /healthz and the landing page", async () => {
    const app = startApp(productionEnv(), await freePort());
    apps.push(app);
    await waitFor200(`${app.url}/healthz`, app);
    const page = await fetch(app.url);
    expect(page.status, app.output()).toBe(200);
    expect(page.headers.get("strict-transport-security")).toContain("max-age=");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(await page.text()).toContain("Start Bidding Today");
    const missing = await fetch(`${app.url}/no-such-page`);
    expect(missing.status).toBe(404);
  });

  it("refuses to start without its secrets", async () => {
    const { SESSION_SECRET: _omit, ...withoutSecret } = productionEnv();
    const app = startApp(withoutSecret, await freePort());
    apps.push(app);
    const code = await new Promise<number | null>((resolve) => app.proc.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(app.output()).toContain("SESSION_SECRET");
  });

  it("refuses to keep files on its own disk unless told FILE_STORAGE=local", async () => {
    const { FILE_STORAGE: _omit, ...withoutChoice } = productionEnv();
    const app = startApp(withoutChoice, await freePort());
    apps.push(app);
    const code = await new Promise<number | null>((resolve) => app.proc.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(app.output()).toContain("Production needs S3_BUCKET or FILE_STORAGE=local");
  });
});
