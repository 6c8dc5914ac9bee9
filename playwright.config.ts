import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    launchOptions,
    trace: "retain-on-failure",
    viewport: { width: 1280, height: 800 },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    // axe needs no second pass without scripts: the markup is the same. The browser-side
    // security checks are about scripts (CSP) and what scripts can read (cookies). The keyboard
    // flows test dialogs and focus handling, which need scripts.
    {
      name: "no-js",
      use: { javaScriptEnabled: false },
      testIgnore: /(a11y|security|keyboard)\.spec\.ts/,
    },
  ],
  globalTeardown: "./tests/e2e/teardown.ts",
  webServer: {
    command: "npx tsx tests/e2e/server.ts",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    // SIGTERM lets the server stop its detached PostgreSQL; the global teardown makes sure.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
