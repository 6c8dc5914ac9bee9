import { expect, test, type Page } from "@playwright/test";
import { query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

const VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

async function createLot(fields: { estimatedValue?: string } = {}) {
  const vin = Array.from({ length: 17 }, () => VIN_CHARS[Math.floor(Math.random() * 33)]).join("");
  const rows = await query<{ id: string }>(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
       location_state, damage_type, primary_damage, title_type, estimated_value, image_urls,
       starts_at, ends_at)
     VALUES ('copart', $1, $2, 2019, 'Toyota', 'Camry', 'Dallas', 'TX', 'collision', 'FRONT END',
       'salvage', $3, ARRAY['/images/lots/sedan-red.svg'], now() - interval '1 hour',
       now() + interval '1 day')
     RETURNING id`,
    [`E${unique()}`.slice(0, 20), vin, fields.estimatedValue ?? "9000.00"],
  );
  return { id: rows[0].id, vin };
}

/** A competitor's standing proxy, arranged as the engine would have left it. */
async function standingProxy(lotId: string, amount: string, max: string) {
  const [{ id: userId }] = await query<{ id: string }>(
    "INSERT INTO users (email, verified, deposit) VALUES ($1, true, 10000) RETURNING id",
    [`rival-${unique()}@bidyard.test`],
  );
  await query(
    `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy) VALUES ($1, $2, $3, $4, true)`,
    [lotId, userId, amount, max],
  );
  await query(
    `UPDATE lots SET current_bid = $2, high_bidder_id = $3, high_max = $4, bid_count = 1
      WHERE id = $1`,
    [lotId, amount, userId, max],
  );
}

const bidder = { verified: true, deposit: "5000.00", first_name: "Bea" };

/** Opens the bid form from the lot's card: the dialog with JS, the lot page without. */
async function openBidForm(page: Page, lot: { id: string; vin: string }, button: string) {
  await page.goto(`/auctions?search=${lot.vin}`);
  await ready(page);
  await expect(page.getByText("1 auction found")).toBeVisible();
  await page.getByRole("link", { name: button, exact: true }).click();
  if (jsEnabled()) {
    await expect(page.getByRole("heading", { name: /Camry/ }).last()).toBeVisible();
    return page.getByRole("dialog");
  }
  await expect(page).toHaveURL(new RegExp(`/auctions/${lot.id}`));
  return page.locator("#bid");
}

test("a verified bidder places a bid", async ({ page, context }) => {
  await signInAs(context, `e2e-bid-${unique()}@bidyard.test`, bidder);
  const lot = await createLot();
  const form = await openBidForm(page, lot, "Place Bid");
  await form.getByLabel("Bid amount (USD)").fill("250");
  // savings are measured from comparable sales, never from the retail value (record 2703)
  await expect(form.getByText(/estimated value/)).toHaveCount(0);
  await expect(form.getByText(/All bids are binding and non-refundable/)).toBeVisible();
  await form.getByRole("button", { name: "Place Bid" }).click();
  if (jsEnabled()) {
    await expect(page.getByRole("status").getByText("Bid Placed Successfully")).toBeVisible();
    await expect(page.getByText("$250.00").first()).toBeVisible();
  } else {
    await expect(page.getByText("You are the high bidder")).toBeVisible();
    await expect(page.getByTestId("current-bid")).toHaveText("$250.00");
  }
  const [row] = await query<{ current_bid: string; bid_count: number }>(
    "SELECT current_bid, bid_count FROM lots WHERE id = $1",
    [lot.id],
  );
  expect(row).toEqual({ current_bid: "250.00", bid_count: 1 });
});

test("what winning at an amount costs: the bid dialog with JS, the lot page's GET form without", async ({
  page,
  context,
}) => {
  if (!jsEnabled()) {
    // no dialog without scripts: the lot page's estimate form, to a ZIP code, adds up
    await signInAs(context, `e2e-allin-${unique()}@bidyard.test`, bidder);
    const lot = await createLot();
    await page.goto(`/auctions/${lot.id}`);
    const card = page.locator("#all-in");
    await card.getByLabel("If I win at ($)").fill("2500");
    await card.getByLabel("Ship to (ZIP, or city, ST)").fill("60614");
    await card.getByRole("button", { name: "Work it out" }).click();
    await expect(page).toHaveURL(/bid=2500/);
    const estimate = page.getByTestId("all-in");
    await expect(estimate).toContainText("If you win at $2,500.00:");
    await expect(page.getByText(/60614 \(Chicago, IL area\)/)).toBeVisible();
    const cells = await estimate.locator("tbody td").allTextContents();
    const sum = cells.reduce((s, t) => s + Math.round(Number(t.replace(/[$,]/g, "")) * 100), 0);
    await expect(estimate.getByTestId("invoice-total")).toHaveText(
      `$${(sum / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`,
    );
    return;
  }
  await signInAs(context, `e2e-allin-${unique()}@bidyard.test`, bidder);
  const lot = await createLot();
  const form = await openBidForm(page, lot, "Place Bid");
  await form.getByLabel("Bid amount (USD)").fill("2500");
  const line = form.getByTestId("bid-all-in");
  await expect(line).toContainText("If you win at $2,500.00: fees $");
  const total = /total (\$[\d,]+\.\d{2}) before transport/.exec(
    (await line.textContent()) ?? "",
  )?.[1];
  expect(total).toBeTruthy();
  // the same figure as the lot page's estimate (and so the invoice) for that bid
  await line.getByRole("link", { name: "Add transport to your city" }).click();
  await expect(page).toHaveURL(new RegExp(`/auctions/${lot.id}\\?bid=2500`));
  await expect(page.getByTestId("all-in").getByTestId("invoice-total")).toHaveText(total!);
});

test("a proxy bid beats a standing proxy at its maximum + $50", async ({ page, context }) => {
  await signInAs(context, `e2e-proxy-${unique()}@bidyard.test`, bidder);
  const lot = await createLot();
  await standingProxy(lot.id, "100.00", "800.00");
  const form = await openBidForm(page, lot, "Auto Bid");
  await form.getByLabel("Bid amount (USD)").fill("300");
  await form.getByLabel("Proxy bid (bid for me up to a maximum)").check();
  await form.getByLabel(/Maximum proxy bid/).fill("2000");
  await form.getByRole("button", { name: "Place Bid" }).click();
  if (jsEnabled()) {
    await expect(page.getByRole("status").getByText("Bid Placed Successfully")).toBeVisible();
  }
  await page.goto(`/auctions/${lot.id}`);
  await expect(page.getByText("You are the high bidder (your maximum: $2,000.00)")).toBeVisible();
  await expect(page.getByTestId("current-bid")).toHaveText("$850.00");
  await expect(
    page.getByRole("cell", {
      name: /^Bidder \d{4} \(you\) Proxy step: your maximum answered a competing maximum$/,
    }),
  ).toBeVisible();
});

test("an invalid bid is refused with the spec's messages and nothing is written", async ({
  page,
  context,
}) => {
  await signInAs(context, `e2e-invalid-${unique()}@bidyard.test`, bidder);
  const lot = await createLot();
  await standingProxy(lot.id, "100.00", "100.00");
  await page.goto(`/auctions/${lot.id}`);
  await ready(page);
  const form = page.locator("#bid");
  await form.getByLabel("Bid amount (USD)").fill("120");
  await form.getByRole("button", { name: "Place Bid" }).click();
  await expect(form.getByText("Invalid Bid: Minimum bid is $150.00")).toBeVisible();
  await form.getByLabel("Bid amount (USD)").fill("200");
  await form.getByLabel("Proxy bid (bid for me up to a maximum)").check();
  await form.getByLabel(/Maximum proxy bid/).fill("200");
  await form.getByRole("button", { name: "Place Bid" }).click();
  await expect(
    form.getByText("Invalid Proxy Bid: Maximum proxy bid must be higher than initial bid."),
  ).toBeVisible();
  await form.getByLabel("Bid amount (USD)").fill("9000");
  await form.getByLabel("Proxy bid (bid for me up to a maximum)").uncheck();
  await form.getByRole("button", { name: "Place Bid" }).click();
  await expect(
    form.getByText("Insufficient Funds: Bid amount exceeds your available deposit."),
  ).toBeVisible();
  const rows = await query("SELECT id FROM bids WHERE lot_id = $1", [lot.id]);
  expect(rows).toHaveLength(1);
});

test("an unverified user cannot bid", async ({ page, context }) => {
  await signInAs(context, `e2e-unverified-${unique()}@bidyard.test`, {
    verified: false,
    deposit: "5000.00",
  });
  const lot = await createLot();
  await page.goto(`/auctions?search=${lot.vin}`);
  await ready(page);
  await page.getByRole("link", { name: "Place Bid", exact: true }).click();
  // With JS the dialog, without it the lot page: what to do, with its link, and no bid form.
  const place = jsEnabled() ? page.getByRole("dialog") : page.locator("#bid");
  await expect(place.getByRole("alert").getByText("Verification Required")).toBeVisible();
  await expect(place.getByText("Please verify your identity before bidding.")).toBeVisible();
  await expect(place.getByRole("link", { name: "Verify your identity" })).toHaveAttribute(
    "href",
    "/kyc-verification",
  );
  await expect(place.getByLabel("Bid amount (USD)")).toHaveCount(0);
  expect(await query("SELECT id FROM bids WHERE lot_id = $1", [lot.id])).toHaveLength(0);
});

test("a user without the $400 deposit cannot bid", async ({ page, context }) => {
  await signInAs(context, `e2e-nodeposit-${unique()}@bidyard.test`, {
    verified: true,
    deposit: "100.00",
  });
  const lot = await createLot();
  await page.goto(`/auctions/${lot.id}`);
  await ready(page);
  const form = page.locator("#bid");
  await expect(
    form
      .getByRole("alert")
      .filter({ hasText: "Deposit Required: Minimum $400 deposit required before bidding." }),
  ).toBeVisible();
  await expect(form.getByRole("link", { name: "Make a deposit" })).toHaveAttribute(
    "href",
    "/deposit",
  );
  await expect(form.getByLabel("Bid amount (USD)")).toHaveCount(0);
  expect(await query("SELECT id FROM bids WHERE lot_id = $1", [lot.id])).toHaveLength(0);
});
