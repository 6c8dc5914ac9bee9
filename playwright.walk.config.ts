// The walk: each kind of person's loop page by page at 1,280 px with scripts and at 360 px
// without, saved as screenshots to read (walk-output/). Not part of `npm test`: its checks are
// the e2e specs'; this only fails on a page that answers 5xx or throws. `npm run walk`.
import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

export default defineConfig({
  ...base,
  testDir: "tests/walk",
  workers: 1,
  timeout: 120_000,
  projects: [
    {
      name: "desktop-js",
      use: { javaScriptEnabled: true, viewport: { width: 1280, height: 800 } },
    },
    {
      name: "phone-no-js",
      use: { javaScriptEnabled: false, viewport: { width: 360, height: 740 } },
    },
  ],
});
