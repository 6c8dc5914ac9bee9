// After the hammer, transport: Ship it (?lot=) → quote → confirm and pay (TEST MODE checkout) →
// a provider claims, starts, completes → the buyer sees Delivered, the provider's statement the net.
import { expect, test, type Page } from "@playwright/test";
import { createAffiliate, createWonLot, tag } from "./arrange";
import { ensureUser, query, signInAs } from "./db";
import { ready } from "./helpers";

async function click(page: Page, name: string | RegExp) {
  await ready(page);
  await page.getByRole("button", { name }).click();
}

test("a won lot is shipped, paid, delivered, and the provider is credited the net", async ({
  page,
  browser,
}) => {
  // Two people's journey through a payment checkout: longer than the default on a shared,
  // heavily loaded 2-core machine.
  test.setTimeout(240_000);
  const t = `${test.info().project.name}-${tag()}`;
  const buyerId = await signInAs(page.context(), `e2e-ship-${t}@bidyard.test`, {
    first_name: "Wendy",
  });
  const lotId = await createWonLot(buyerId, { paid: true });
  // someone else's lot in the address is ignored with a notice
  const strangerLot = await createWonLot(await ensureUser(`e2e-other-${t}@bidyard.test`), {
    paid: true,
  });
  await page.goto(`/service-orders/request?lot=${strangerLot}`);
  await expect(page.getByText("That lot is not one of your paid vehicles")).toBeVisible();

  // Ship it: the purchase page links here with the lot
  await page.goto(`/service-orders/request?lot=${lotId}`);
  await expect(page.getByRole("heading", { name: "2018 Ford F-150" })).toBeVisible();
  await expect(page.getByText("Pickup: Copart Phoenix, Phoenix, AZ")).toBeVisible();
  await expect(page.getByRole("link", { name: "Show all my won vehicles" })).toBeVisible();
  await ready(page);
  await page.getByLabel("Delivery ZIP, or city, ST (shipping)").fill("Long Beach, CA");
  await click(page, "Request service");

  // the review step: route, service, price
  await expect(page.getByRole("heading", { name: "Review and pay" })).toBeVisible();
  await expect(page.getByText("Copart Phoenix, Phoenix, AZ → Long Beach, CA")).toBeVisible();
  await expect(page.getByText("Shipping (domestic)")).toBeVisible();
  const [order] = await query<{ id: string; payout: string; payment_status: string }>(
    "SELECT id::text, payout::text, payment_status FROM service_orders WHERE lot_id = $1",
    [lotId],
  );
  expect(order.payment_status).toBe("unpaid");
  const price = `$${Number(order.payout).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
  await expect(page.getByText(/does not cover it/)).toBeVisible();

  // no deposit to cover it: the TEST MODE checkout, there and back
  await click(page, `Pay ${price} with Test Gateway`);
  await expect(page.getByRole("heading", { name: "Test Checkout" })).toBeVisible();
  await click(page, "Approve payment");
  await expect(page.getByRole("heading", { name: "2018 Ford F-150", level: 1 })).toBeVisible();
  await expect(page.getByText("Payment received. Providers can now claim your job.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Review and pay" })).toHaveCount(0);
  const progress = page.getByRole("list", { name: "Transport progress" });
  await expect(progress.locator('[aria-current="step"]')).toHaveText("Open");

  // a provider claims, starts and completes it
  const providerContext = await browser.newContext();
  const provider = await providerContext.newPage();
  const providerEmail = `e2e-carrier-${t}@bidyard.test`;
  await createAffiliate(providerEmail);
  await signInAs(providerContext, providerEmail);
  await provider.goto(`/service-orders/${order.id}`);
  await click(provider, /^Claim Job/);
  await expect(provider.getByRole("button", { name: /^Start Service/ })).toBeVisible();

  await page.reload();
  await expect(progress.locator('[aria-current="step"]')).toHaveText("Claimed");

  await click(provider, /^Start Service/);
  await expect(provider.getByRole("button", { name: /^Mark Complete/ })).toBeVisible();
  await click(provider, /^Mark Complete/);
  await expect(provider.getByRole("button", { name: /^Mark Complete/ })).toHaveCount(0);

  // the buyer sees Delivered
  await page.reload();
  await expect(progress.locator('[aria-current="step"]')).toHaveText("Delivered");

  // the provider's statement shows the payout net of the 10% fee, at phone width too
  const grossCents = Math.round(Number(order.payout) * 100);
  const feeCents = Math.floor((grossCents * 1000 + 5000) / 10000);
  const usd = (cents: number) =>
    `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
  await provider.setViewportSize({ width: 360, height: 740 });
  await provider.goto("/service-orders/earnings");
  await expect(provider.getByRole("heading", { name: "Earnings statement" })).toBeVisible();
  const row = provider.getByRole("row", { name: /2018 Ford F-150/ });
  await expect(row).toContainText(usd(grossCents - feeCents));
  await expect(row).toContainText(usd(feeCents));
  await expect(provider.getByText("Net earnings")).toBeVisible();
  const overflow = await provider.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await providerContext.close();
});
