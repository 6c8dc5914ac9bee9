// What only a browser can show about BidYard's security headers and cookies (the HTTP-level
// suite is tests/integration/security-*.test.ts). With JavaScript only (playwright.config.ts): the
// Content-Security-Policy is about scripts.
//   1. Our pages hydrate under the CSP with no violation (every script of ours carries the nonce).
//   2. An inline script slipped into a page without the nonce is blocked by the browser.
//   3. After a real sign-in and a banner close, no cookie is readable by a page script and every
//      cookie the browser holds for the app is HttpOnly and SameSite=Lax.
import { expect, test, type Page } from "@playwright/test";
import { signInAs } from "./db";
import { signInThroughIssuer } from "./helpers";

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

type Violation = { directive: string; blocked: string; sample: string; source?: string };

/**
 * Waits for hydration by polling with page.evaluate: helpers' `ready` uses waitForFunction, whose
 * predicate Playwright compiles with eval in the page, which this CSP rightly reports.
 */
async function hydrated(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          (window as unknown as { __remixRouter?: { state: { initialized: boolean } } })
            .__remixRouter?.state.initialized === true,
      ),
    )
    .toBe(true);
}

/** Records CSP violations the page reports, from before any of its own scripts run. */
async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { __cspViolations: Violation[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
        source: `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      });
    });
  });
  return () =>
    page.evaluate(() => (window as unknown as { __cspViolations: Violation[] }).__cspViolations);
}

test("our pages hydrate under the CSP without a single violation", async ({ page, context }) => {
  await signInAs(context, `csp-${unique()}@bidyard.test`, { verified: true, deposit: "500.00" });
  const violations = await watchViolations(page);
  for (const path of ["/", "/auctions", "/community-vehicles", "/kyc-verification", "/deposit"]) {
    const response = await page.goto(path);
    expect(response?.headers()["content-security-policy"], path).toMatch(/script-src[^;]*'nonce-/);
    await hydrated(page);
    expect(await violations(), path).toEqual([]);
  }
});

test("an inline script without the nonce is blocked by the browser", async ({ page }) => {
  const violations = await watchViolations(page);
  await page.route("**/community-vehicles", async (route) => {
    const original = await route.fetch();
    const html = (await original.text()).replace(
      "<head>",
      "<head><script>window.__injected = 'ran';</script>",
    );
    // The page's own headers, CSP included, as the server sent them.
    await route.fulfill({ response: original, body: html });
  });
  await page.goto("/community-vehicles");
  await hydrated(page); // our own (nonce-carrying) scripts did run
  expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBe(
    undefined,
  );
  const seen = await violations();
  expect(seen).toEqual(
    expect.arrayContaining([expect.objectContaining({ directive: "script-src-elem" })]),
  );
});

test("no cookie is readable by a page script; all are HttpOnly and SameSite=Lax", async ({
  page,
  context,
  baseURL,
}) => {
  await signInThroughIssuer(page, `cookies-${unique()}@bidyard.test`, "/community-vehicles");
  const banner = page.getByRole("complementary", { name: "Beta announcement" });
  await banner.getByRole("button", { name: "Close beta banner" }).click();
  await expect(banner).toHaveCount(0);
  const cookies = await context.cookies(baseURL!);
  const names = cookies.map((cookie) => cookie.name);
  expect(names).toEqual(expect.arrayContaining(["__session", "beta_banner_closed"]));
  for (const cookie of cookies) {
    expect(cookie.httpOnly, cookie.name).toBe(true);
    expect(cookie.sameSite, cookie.name).toBe("Lax");
    expect(cookie.path, cookie.name).toBe("/");
  }
  expect(await page.evaluate(() => document.cookie)).toBe("");
  // The banner stays closed on the server's next render.
  await page.reload();
  await expect(page.getByRole("complementary", { name: "Beta announcement" })).toHaveCount(0);
});
