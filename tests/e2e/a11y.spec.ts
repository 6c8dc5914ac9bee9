// axe-core on every screen, signed out and in: no serious or critical violation.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signInAs } from "./db";
import { ready } from "./helpers";

async function expectAccessible(page: Page, path: string) {
  await page.goto(path);
  await ready(page);
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
  expect(serious, `${path}`).toEqual([]);
}

const SIGNED_OUT = ["/", "/no-such-page"];
const SIGNED_IN = ["/"];
const ADMIN = ["/admin", "/admin?tab=early-access", "/admin?tab=settings", "/admin?tab=audit"];

test("screens signed out", async ({ page }) => {
  for (const path of SIGNED_OUT) await expectAccessible(page, path);
});

test("screens signed in", async ({ page, context }) => {
  await signInAs(context, `a11y-${Date.now()}@bidyard.test`, {
    first_name: "Ally",
    verified: true,
    deposit: "1000.00",
  });
  for (const path of SIGNED_IN) await expectAccessible(page, path);
});

test("admin screens", async ({ page, context }) => {
  await signInAs(context, `a11y-admin-${Date.now()}@bidyard.test`, { role: "admin" });
  for (const path of ADMIN) await expectAccessible(page, path);
});
