// The leader rule on the lot page (docs/decisions/2702), JavaScript on and off: a leader's new
// bid raises only their maximum; the price and the history stay, and the page says so.
import { expect, test } from "@playwright/test";
import { createLot, tag } from "./arrange";
import { query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

test("a leader's second bid raises their maximum, not the price", async ({ page, context }) => {
  if (!jsEnabled()) await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(context, `e2e-leader-${test.info().project.name}-${tag()}@bidyard.test`, {
    first_name: "Lee",
    verified: true,
    deposit: "5000.00",
  });
  const lot = await createLot({ model: "Corolla" });
  await page.goto(`/auctions/${lot.id}`);
  await ready(page);
  const form = page.locator("#bid");
  await form.getByLabel("Bid amount (USD)").fill("75");
  await form.getByRole("button", { name: "Place Bid" }).click();
  await expect(page.getByText("You are the high bidder").first()).toBeVisible();
  await expect(page.getByTestId("current-bid")).toHaveText("$75.00");

  // the lot 4: the same leader bids $125 (a proxy with a $500 maximum)
  await ready(page);
  await form.getByLabel("Bid amount (USD)").fill("125");
  await form.getByLabel("Proxy bid (bid for me up to a maximum)").check();
  await form.getByLabel(/Maximum proxy bid/).fill("500");
  await form.getByRole("button", { name: "Place Bid" }).click();
  await expect(page.getByText(/Maximum Raised/).first()).toBeVisible();
  await expect(page.getByText(/Your maximum is now \$500\.00/).first()).toBeVisible();
  await expect(page.getByTestId("current-bid")).toHaveText("$75.00");
  await expect(page.getByText("(your maximum: $500.00)")).toBeVisible();
  await expect(page.getByTestId("leader-rule")).toContainText(
    "A new bid only raises your maximum (now $500.00); the price stays at $75.00",
  );
  // one bid in the history, not "you $75, you $125"
  const history = page.getByRole("table").filter({ hasText: "Bidder" });
  await expect(history.getByRole("row")).toHaveCount(2);
  await expect(history.getByText("$75.00")).toBeVisible();
  await expect(history.getByText("$125.00")).toHaveCount(0);
  const [row] = await query<{ current_bid: string; bid_count: number; high_max: string }>(
    "SELECT current_bid, bid_count, high_max FROM lots WHERE id = $1",
    [lot.id],
  );
  expect(row).toEqual({ current_bid: "75.00", bid_count: 1, high_max: "500.00" });
  await page.screenshot({
    path: test.info().outputPath(`leader-rule-${test.info().project.name}.png`),
    fullPage: true,
  });
});
