// Issue 20, what a buyer meets: the deposit success notice comes once, one buying-power figure
// on every screen, refunds say the true reason, and who may not bid is told what to do instead
// of being shown a bid form. Runs with JavaScript and without (the `no-js` project).
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createLot, tag } from "./arrange";
import { query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

const email = (name: string) =>
  `e2e-hard-${name}-${test.info().project.name}-${tag()}@bidyard.test`;

test("a deposit's success notice comes once: a reload shows no success", async ({
  page,
  context,
}) => {
  await signInAs(context, email("once"), { first_name: "Una", verified: true });
  await page.goto("/deposit?amount=400#payment");
  await ready(page);
  await page.getByRole("button", { name: "Pay with Test Gateway" }).click();
  await page.getByRole("button", { name: "Approve payment" }).click();
  await expect(page.getByText("Deposit Successful")).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$400.00");

  await page.reload();
  await expect(page.getByTestId("balance")).toHaveText("$400.00");
  await expect(page.getByText("Deposit Successful")).toHaveCount(0);

  // the old success address announces nothing either (a bookmark, a shared link)
  await page.goto("/deposit?success=true");
  await expect(page.getByTestId("balance")).toHaveText("$400.00");
  await expect(page.getByText("Deposit Successful")).toHaveCount(0);
});

/** A lead of `userId` on `lotId` with `max` held, as the bid engine would have left it. */
async function lead(lotId: string, userId: string, max: string) {
  await query(
    `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy) VALUES ($1, $2, 100, $3, true)`,
    [lotId, userId, max],
  );
  await query(
    `UPDATE lots SET current_bid = 100, high_bidder_id = $2, high_max = $3, bid_count = 1
      WHERE id = $1`,
    [lotId, userId, max],
  );
}

const figure = (scope: Page | Locator) => scope.getByTestId("buying-power");

test("one buying-power figure, one label, on every screen", async ({ page, context }) => {
  const userId = await signInAs(context, email("power"), {
    first_name: "Pia",
    verified: true,
    deposit: "2500.00",
  });
  const held = await createLot({ model: "Corolla" });
  const other = await createLot({ model: "Camry" });
  await lead(held.id, userId, "500.00");

  await page.goto("/");
  const balance = page.getByRole("region", { name: "Account Balance" });
  await expect(balance).toContainText("$2,500.00");
  await expect(balance).toContainText("Available for bidding: $2,000.00");

  await page.goto(`/auctions?search=${other.vin}`);
  await expect(page.getByText("Available for bidding: $2,000.00")).toBeVisible();

  await page.goto(`/auctions/${other.id}`);
  await expect(page.locator("#bid").getByText("Available for bidding: $2,000.00")).toBeVisible();
  await expect(page.getByText("Available to bid")).toHaveCount(0);

  // On the lot the buyer leads: the same figure, and what this lot already holds on top.
  await page.goto(`/auctions/${held.id}`);
  await expect(page.locator("#bid").getByText("Available for bidding: $2,000.00")).toBeVisible();
  await expect(page.getByTestId("held-on-lot")).toHaveText(
    "Held from your deposit for this lot: $500.00 (your maximum while you lead). You can raise your maximum here up to $2,500.00: that $500.00 plus what is available for bidding.",
  );

  await page.goto("/deposit");
  await expect(page.getByText("Available for bidding: $2,000.00")).toBeVisible();
  await expect(page.getByTestId("refundable")).toContainText("Available to refund: $0.00");
  await expect(page.getByTestId("refund-reason")).toHaveText([
    "$500.00 is held by your leading bids and unpaid purchases until they settle.",
    "$2,000.00 was added by an adjustment and cannot be refunded through the payment provider; contact support.",
  ]);

  if (jsEnabled()) {
    await page.goto(`/auctions?search=${other.vin}`);
    await ready(page);
    await page.getByRole("link", { name: "Place Bid", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("Available for bidding: $2,000.00")).toBeVisible();
    await expect(figure(dialog)).toHaveText("$2,000.00");
  }
});

test("the demo buyer's seeded deposit is a captured test payment, refundable", async ({
  page,
  context,
}) => {
  await signInAs(context, "buyer@bidyard.test");
  await page.goto("/deposit");
  const [{ deposit, held }] = await query<{ deposit: string; held: string }>(
    `SELECT u.deposit, x.total AS held FROM users u, deposit_exposure(u.id) x
      WHERE u.email = 'buyer@bidyard.test'`,
  );
  const refundable = (Number(deposit) - Number(held)).toLocaleString("en-US", {
    style: "currency",
    currency: "USD",
  });
  await expect(page.getByTestId("refundable")).toContainText(`Available to refund: ${refundable}`);
  await expect(page.getByText(/added by an adjustment/)).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Deposit History" })).toContainText(
    "Test payment TESTCAP-",
  );
});

test("an unverified buyer without a deposit is told what to do, with links, and gets no bid form", async ({
  page,
  context,
}) => {
  await signInAs(context, email("unverified"), { first_name: "Ned", verified: false });
  const lot = await createLot();
  await page.goto(`/auctions/${lot.id}`);
  const place = page.locator("#bid");
  const notice = place.getByRole("alert");
  await expect(notice).toContainText(
    "Verification Required: Please verify your identity before bidding.",
  );
  await expect(notice).toContainText(
    "Deposit Required: Minimum $400 deposit required before bidding.",
  );
  await expect(notice.getByRole("link", { name: "Verify your identity" })).toHaveAttribute(
    "href",
    "/kyc-verification",
  );
  await expect(notice.getByRole("link", { name: "Make a deposit" })).toHaveAttribute(
    "href",
    "/deposit",
  );
  await expect(place.getByLabel("Bid amount (USD)")).toHaveCount(0);
  await expect(place.getByRole("button", { name: "Place Bid" })).toHaveCount(0);
  await expect(page.getByText(/You could save/)).toHaveCount(0);

  if (jsEnabled()) {
    // the list's bid dialog says the same
    await page.goto(`/auctions?search=${lot.vin}`);
    await ready(page);
    await page.getByRole("link", { name: "Place Bid", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("link", { name: "Verify your identity" })).toBeVisible();
    await expect(dialog.getByRole("link", { name: "Make a deposit" })).toBeVisible();
    await expect(dialog.getByLabel("Bid amount (USD)")).toHaveCount(0);
    await expect(dialog.getByText(/You could save/)).toHaveCount(0);
    await dialog.getByRole("link", { name: "Verify your identity" }).click();
    await expect(page).toHaveURL(/\/kyc-verification$/);
  } else {
    await notice.getByRole("link", { name: "Verify your identity" }).click();
    await expect(page).toHaveURL(/\/kyc-verification$/);
  }
});
