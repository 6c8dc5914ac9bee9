// After the hammer, on screen (JavaScript on and off): a won lot (its end moved into the past) →
// My auctions → the invoice → pay (deposit part + TEST MODE gateway part) → the release page.
import { expect, test } from "@playwright/test";
import { createLot } from "./arrange";
import { lotClosed, query, signInAs } from "./db";
import { ready } from "./helpers";

const unique = (name: string) =>
  `e2e-${name}-${test.info().project.name}-${Date.now()}@bidyard.test`;

test("win → invoice → pay (deposit + gateway) → release", async ({ page, context }) => {
  test.slow();
  const buyerId = await signInAs(context, unique("winner"), {
    first_name: "Wyn",
    verified: true,
    deposit: "1000.00",
  });
  const lot = await createLot({ model: "Corolla", endsIn: "1 day" });
  await query(
    `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, created_at)
     VALUES ($1, $2, 1000, 1000, false, now())`,
    [lot.id, buyerId],
  );
  await query(
    "UPDATE lots SET current_bid = 1000, high_max = 1000, high_bidder_id = $2, bid_count = 1 WHERE id = $1",
    [lot.id, buyerId],
  );
  // move the clock: the auction is over (its close job closes it)
  await query("UPDATE lots SET ends_at = now() - interval '1 second' WHERE id = $1", [lot.id]);
  await lotClosed(lot.id);

  await page.goto("/my-auctions");
  await expect(page.getByRole("heading", { name: "My auctions", level: 1 })).toBeVisible();
  const won = page.getByRole("region", { name: /Won/ });
  await expect(won.getByText("Awaiting payment")).toBeVisible();
  await won.getByRole("link", { name: "2019 Toyota Corolla" }).click();

  await expect(page.getByRole("heading", { name: "Invoice" })).toBeVisible();
  await expect(page.getByText("Buyer fee (non-clean title)")).toBeVisible();
  await expect(page.getByTestId("purchase-status")).toHaveText("Awaiting payment");
  await expect(page.getByTestId("deposit-part")).toHaveText("$1,000.00");
  const gatewayPart = (await page.getByTestId("gateway-part").textContent())!;
  expect(gatewayPart).toMatch(/^\$\d/);

  await ready(page);
  // the deposit first, the rest through the gateway: one of the two ways offered
  await page.getByRole("button", { name: /from my deposit and the rest/ }).click();
  await expect(page.getByRole("heading", { name: "Test Checkout" })).toBeVisible();
  await expect(page.getByTestId("test-checkout-amount")).toHaveText(gatewayPart);
  await page.getByRole("button", { name: "Approve payment" }).click();

  await expect(page.getByRole("heading", { name: "Vehicle release" })).toBeVisible();
  await expect(page.getByTestId("pickup-code")).toHaveText(/^[A-Z0-9]{8}$/);
  await expect(page.getByText(lot.vin)).toBeVisible();
  await expect(page.getByText("From your BidYard deposit: $1,000.00")).toBeVisible();
  await expect(page.getByText(`Paid through the payment provider: ${gatewayPart}`)).toBeVisible();
  await expect(page.getByRole("link", { name: "Ship it" })).toHaveAttribute(
    "href",
    `/service-orders/request?lot=${lot.id}`,
  );

  // at 360 px the release still fits the screen
  await page.setViewportSize({ width: 360, height: 740 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);

  await page.goto("/my-auctions");
  await expect(
    page.getByRole("region", { name: /Won/ }).getByText("Paid", { exact: true }),
  ).toBeVisible();
});
