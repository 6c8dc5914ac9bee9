// One status per question on every page (docs/decisions/2704), JavaScript on (1280 px) and off
// (360 px): a sent ID reads "under review" on the dashboard, the deposit page, the lot page and
// the KYC page, with one review time; nothing says "Pending" before an upload; and no one is
// offered a "Claim Job" they cannot use.
import { expect, test } from "@playwright/test";
import {
  createAffiliate,
  createLot,
  createOrder,
  createPendingKycDocument,
  createWonLot,
  removeKycDocuments,
  tag,
} from "./arrange";
import { query, signInAs } from "./db";
import { jsEnabled } from "./helpers";

const email = (name: string) => `e2e-${name}-${test.info().project.name}-${tag()}@bidyard.test`;

test.beforeEach(async ({ page }) => {
  if (!jsEnabled()) await page.setViewportSize({ width: 360, height: 740 });
});

test("before any upload the dashboard says Not started, not Pending", async ({ page, context }) => {
  await signInAs(context, email("fresh"), { first_name: "Fay", deposit: "1000.00" });
  await page.goto("/");
  const card = page.getByRole("region", { name: "Verification Status" });
  await expect(card).toContainText("Not started");
  await expect(card).not.toContainText("Pending");
  await expect(page.getByTestId("bidding-status")).toHaveText("Verification Required");
  await page.goto("/deposit");
  await expect(page.getByTestId("bidding-status")).toHaveText("Verification Required");
  await expect(page.getByText("Bidding Enabled")).toHaveCount(0);
});

test("after sending an ID every page says it is under review, with one review time", async ({
  page,
  context,
}) => {
  const userId = await signInAs(context, email("sent"), { first_name: "Sam", deposit: "1000.00" });
  await createPendingKycDocument(userId);
  const lot = await createLot();
  try {
    await page.goto("/");
    const card = page.getByRole("region", { name: "Verification Status" });
    await expect(card).toContainText("Under review");
    await expect(card.getByTestId("identity-detail")).toHaveText(
      "Your document is being reviewed, usually within 24 hours.",
    );
    await expect(page.getByTestId("bidding-status")).toHaveText("ID Under Review");

    // the deposit alone does not enable bidding
    await page.goto("/deposit");
    await expect(page.getByTestId("bidding-status")).toHaveText("ID Under Review");
    await expect(page.getByText("Bidding Enabled")).toHaveCount(0);
    await expect(
      page.getByText(
        "Verification Required: Your ID is under review (usually within 24 hours). You can bid once it is approved.",
      ),
    ).toBeVisible();

    // the lot says the same, not "please verify your identity"
    await page.goto(`/auctions/${lot.id}`);
    const bid = page.locator("#bid");
    await expect(bid.getByRole("alert")).toHaveText(
      "Verification Required: Your ID is under review (usually within 24 hours). You can bid once it is approved. See your verification",
    );
    await expect(page.getByText(/Please verify your identity/)).toHaveCount(0);
    await expect(bid.getByRole("button", { name: "Place Bid" })).toHaveCount(0);

    await page.goto("/kyc-verification");
    await expect(page.getByText("Under Review")).toBeVisible();
    await expect(
      page.getByText("Your document is being reviewed, usually within 24 hours."),
    ).toBeVisible();
    await expect(page.getByText("Reviewed usually within 24 hours")).toBeVisible();
    await expect(page.getByText(/24-48/)).toHaveCount(0);
    await page.screenshot({
      path: test.info().outputPath(`kyc-${test.info().project.name}.png`),
      fullPage: true,
    });
  } finally {
    await removeKycDocuments(userId);
  }
});

test("a provider awaiting approval sees why, not an active Claim Job", async ({
  page,
  context,
}) => {
  const label = `2018 Honda Accord ${tag()}`;
  const orderId = await createOrder(label);
  const address = email("waiting");
  await createAffiliate(address, "pending");
  await signInAs(context, address);
  const reason =
    "Your provider application is under review (usually within 24 hours). You can claim jobs once it is approved.";
  await page.goto(`/service-orders?q=${encodeURIComponent(label)}`);
  const card = page.getByRole("article", { name: label });
  await expect(card).toBeVisible();
  await expect(card.getByTestId("claim-blocker")).toHaveText(reason);
  await expect(page.getByRole("button", { name: /Claim Job/ })).toHaveCount(0);
  await page.goto(`/service-orders/${orderId}`);
  await expect(page.getByTestId("claim-blocker")).toHaveText(reason);
  await expect(page.getByRole("button", { name: /Claim Job/ })).toHaveCount(0);
});

test("a buyer looking at their own transport order is told a provider will claim it", async ({
  page,
  context,
}) => {
  const address = email("shipper-buyer");
  // an approved provider who also buys: still no claiming of their own job
  const buyerId = await createAffiliate(address, "approved");
  await signInAs(context, address);
  const lotId = await createWonLot(buyerId, { paid: true });
  const [order] = await query<{ id: string }>(
    `INSERT INTO service_orders (service_type, lot_id, purchase_id, requested_by, vehicle_label,
       vehicle_type, pickup_city, pickup_state, delivery_city, delivery_state, distance_miles,
       payout, status, payment_status, paid_at)
     SELECT 'shipping', $1, p.id, $2, '2018 Ford F-150', 'truck', 'Phoenix', 'AZ', 'Long Beach',
       'CA', 380, '700.00', 'open', 'paid', now()
       FROM purchases p WHERE p.lot_id = $1
     RETURNING id::text`,
    [lotId, buyerId],
  );
  await page.goto(`/service-orders/${order.id}`);
  await expect(page.getByTestId("claim-blocker")).toHaveText(
    "This is your own transport request: an approved provider will claim it from the board.",
  );
  await expect(page.getByRole("button", { name: /Claim Job/ })).toHaveCount(0);
  await page.screenshot({
    path: test.info().outputPath(`own-order-${test.info().project.name}.png`),
    fullPage: true,
  });
});
