// Money taken only when asked (docs/decisions/2753), JavaScript on and off: Ship it asks how to
// pay and shows the buying power after each way; a paid invoice's other checkout cannot be
// approved; a stale pay form lands on the paid invoice, "This invoice is paid (once)".
import { expect, test, type Page } from "@playwright/test";
import { createLot, createWonLot, tag } from "./arrange";
import { lotClosed, query, signInAs } from "./db";
import { ready } from "./helpers";

const unique = (name: string) => `e2e-${name}-${test.info().project.name}-${tag()}@bidyard.test`;

async function click(page: Page, name: string | RegExp) {
  await ready(page);
  await page.getByRole("button", { name }).click();
}

const usd = (dollars: number) =>
  `$${dollars.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function deposit(userId: string) {
  const [{ deposit }] = await query<{ deposit: string }>(
    "SELECT deposit::text FROM users WHERE id = $1",
    [userId],
  );
  return deposit;
}

test("Ship it asks: the deposit or the gateway, with the buying power after each", async ({
  page,
}) => {
  test.slow();
  const buyerId = await signInAs(page.context(), unique("asked"), {
    first_name: "Asa",
    deposit: "2000.00",
  });
  const lotId = await createWonLot(buyerId, { paid: true });
  await page.goto(`/service-orders/request?lot=${lotId}`);
  await ready(page);
  await page.getByLabel("Delivery ZIP, or city, ST (shipping)").fill("Long Beach, CA");
  await click(page, "Request service");
  await expect(page.getByRole("heading", { name: "Review and pay" })).toBeVisible();

  const [order] = await query<{ payout: string }>(
    "SELECT payout::text FROM service_orders WHERE lot_id = $1",
    [lotId],
  );
  const price = Number(order.payout);
  // asked, not taken: the deposit is as it was while the buyer reads the choice
  expect(await deposit(buyerId)).toBe("2000.00");
  await expect(page.getByTestId("buying-power-now")).toHaveText("$2,000.00");
  await expect(page.getByTestId("after-deposit")).toContainText(
    `Available for bidding afterwards: ${usd(2000 - price)}`,
  );
  await expect(page.getByTestId("after-gateway")).toContainText(
    "Available for bidding stays $2,000.00",
  );
  await expect(
    page.getByRole("button", { name: `Pay ${usd(price)} with Test Gateway` }),
  ).toBeVisible();

  await click(page, `Pay ${usd(price)} from my deposit`);
  await expect(page.getByText("Paid from your deposit.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Review and pay" })).toHaveCount(0);
  expect(await deposit(buyerId)).toBe((2000 - price).toFixed(2));
});

test("a paid invoice: the other tab's checkout cannot be approved, its stale form lands on the paid invoice", async ({
  page,
  context,
}) => {
  test.slow();
  const buyerId = await signInAs(context, unique("once"), {
    first_name: "Una",
    verified: true,
    deposit: "500.00",
  });
  const lot = await createLot({ model: "Prius" });
  await query(
    `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, created_at)
     VALUES ($1, $2, 500, 500, false, now())`,
    [lot.id, buyerId],
  );
  await query(
    `UPDATE lots SET current_bid = 500, high_max = 500, high_bidder_id = $2, bid_count = 1,
       ends_at = now() - interval '1 second' WHERE id = $1`,
    [lot.id, buyerId],
  );
  await lotClosed(lot.id);
  await page.goto(`/auctions/${lot.id}`); // the close job has written the invoice
  const [{ id }] = await query<{ id: string }>("SELECT id::text FROM purchases WHERE lot_id = $1", [
    lot.id,
  ]);
  const invoice = `/purchases/${id}`;

  // two tabs on the invoice; each starts a checkout for the gateway part
  const other = await context.newPage();
  await page.goto(invoice);
  await other.goto(invoice);
  const stale = await context.newPage();
  await stale.goto(invoice);
  await click(page, /with Test Gateway/);
  await expect(page.getByRole("heading", { name: "Test Checkout" })).toBeVisible();
  await click(other, /with Test Gateway/);
  await expect(other.getByRole("heading", { name: "Test Checkout" })).toBeVisible();

  // the first pays
  await click(page, "Approve payment");
  await expect(page.getByRole("heading", { name: "Vehicle release" })).toBeVisible();

  // the second checkout was closed when the invoice was paid: approving it does nothing
  await click(other, "Approve payment");
  await expect(other.getByText("This test payment is no longer open.")).toBeVisible();
  const [{ n }] = await query<{ n: string }>(
    `SELECT count(*)::text AS n FROM purchase_entries WHERE purchase_id = $1 AND kind = 'gateway'`,
    [id],
  );
  expect(n).toBe("1");

  // the third tab's form, loaded before paying, is sent again: the paid invoice, paid once
  await click(stale, /with Test Gateway/);
  await expect(stale).toHaveURL(new RegExp(`${invoice}$`));
  await expect(stale.getByText("This invoice is paid (once)")).toBeVisible();
  await expect(stale.getByTestId("purchase-status")).toHaveText("Paid");
});
