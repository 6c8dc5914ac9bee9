import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

/**
 * Serious or critical axe findings on what the page shows. axe runs as a script, so for the
 * no-JS project the rendered markup (scripts removed) is checked in a script-enabled copy.
 */
async function seriousViolations(page: Page) {
  let target = page;
  let close: () => Promise<void> = async () => undefined;
  if (!jsEnabled()) {
    const html = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
    const browser = page.context().browser()!;
    const context = await browser.newContext({ javaScriptEnabled: true });
    target = await context.newPage();
    await target.goto(new URL("/healthz", page.url()).toString());
    await target.setContent(html, { waitUntil: "load" });
    close = () => context.close();
  }
  try {
    const results = await new AxeBuilder({ page: target }).analyze();
    expect(results.passes.length).toBeGreaterThan(10);
    expect(results.passes.map((rule) => rule.id)).toContain("color-contrast");
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  } finally {
    await close();
  }
}

test.describe("accessibility of the shell", () => {
  test("the landing page with the banner and the registration form", async ({ page }) => {
    await page.goto("/?register=1");
    await ready(page);
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the dashboard and the early-access form", async ({ page, context }) => {
    await signInAs(context, `a11y-${Date.now()}@example.com`, { first_name: "Al", role: "admin" });
    await page.goto("/");
    await ready(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Get Early Access" }).click();
    await expect(page.getByRole("heading", { name: "Get Early Access" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
