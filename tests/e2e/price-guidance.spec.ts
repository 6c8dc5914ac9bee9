// Price guidance on the lot page from its own evidence (docs/decisions/2703), JavaScript on and
// off: the likely range sits inside the comparable sales shown (or says "few sales: wide range"),
// a saving is measured from the bid's all-in cost to their median, only for a running vehicle
// (record 3542), and the budget answer says when the budget is already below the minimum bid.
import { expect, test, type Page } from "@playwright/test";
import { createLot, tag } from "./arrange";
import { ensureUser, query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

/** A sold lot of `model` at `price`, closed a few days ago. */
async function soldFor(model: string, price: number) {
  const lot = await createLot({ model });
  const winner = await ensureUser("e2e-guide-winner@bidyard.test");
  await query(
    `UPDATE lots SET status = 'sold', current_bid = $2, high_max = $2, high_bidder_id = $3,
       bid_count = 1, runs_drives = true, ends_at = now() - interval '3 days',
       closed_at = now() - interval '3 days', starts_at = now() - interval '5 days'
     WHERE id = $1`,
    [lot.id, price, winner],
  );
}

async function openLot(model: string, fields: { runs: boolean; currentBid?: number }) {
  const lot = await createLot({ model });
  await query("UPDATE lots SET runs_drives = $2, current_bid = $3 WHERE id = $1", [
    lot.id,
    fields.runs,
    fields.currentBid ?? 0,
  ]);
  return lot;
}

async function typeBid(page: Page, amount: string) {
  await ready(page);
  await page.locator("#bid").getByLabel("Bid amount (USD)").fill(amount);
}

test.beforeEach(async ({ page, context }) => {
  if (!jsEnabled()) await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(context, `e2e-guide-${test.info().project.name}-${tag()}@bidyard.test`, {
    first_name: "Gus",
    verified: true,
    deposit: "10000.00",
  });
});

test("enough sales: the range inside them; a saving from their median for a runner only", async ({
  page,
}) => {
  const model = `Guide${tag()}`.slice(0, 20);
  for (const price of [3000, 3400, 3800, 4200, 4600]) await soldFor(model, price);
  const runner = await openLot(model, { runs: true });
  await page.goto(`/auctions/${runner.id}`);
  await expect(page.getByTestId("likely-price")).toHaveText(
    "Likely price: $3,400.00 – $4,200.00 (the middle half of 5 comparable sales)",
  );
  await expect(page.getByTestId("comparable-median")).toHaveText(
    "Median of 5 sales: $3,800.00 (from $3,000.00 to $4,600.00)",
  );
  const advice = page.locator("#bid").getByTestId("bid-advice");
  if (jsEnabled()) {
    // the field starts at the minimum bid, which nobody typed: no saving is claimed for it
    await ready(page);
    await expect(advice).toHaveCount(0);
    // the saving is said from the all-in cost (record 3542): $2,000 and $1,048 of fees on a
    // salvage title at the stored schedules
    await typeBid(page, "2000");
    await expect(advice).toHaveText(
      "About $3,048 all in with the fees, $752 under the likely price of $3,800.00 (the median of 5 comparable sales).",
    );
    // $3,000 is under the median, but not once the fees are added: no saving is claimed
    await typeBid(page, "3000");
    await expect(advice).toHaveCount(0);
    await typeBid(page, "4500");
    await expect(advice).toHaveText(
      "Warning: your bid is above the likely price of $3,400.00 – $4,200.00 (the middle half of 5 comparable sales).",
    );
  } else {
    // the field starts at the minimum bid, which nobody typed: no saving is claimed for it
    await expect(advice).toHaveCount(0);
  }
  await expect(page.getByText(/estimated value/)).toHaveCount(0);
  await page.screenshot({
    path: test.info().outputPath(`guidance-${test.info().project.name}.png`),
    fullPage: true,
  });

  // the same sales, a vehicle that does not run: no saving promised
  const nonRunner = await openLot(model, { runs: false });
  await page.goto(`/auctions/${nonRunner.id}`);
  await expect(page.getByTestId("likely-price")).toContainText("$3,400.00 – $4,200.00");
  if (jsEnabled()) await typeBid(page, "3000");
  await expect(page.getByText(/under the likely price/)).toHaveCount(0);
});

test("few sales: a wide range around them that says so, and no saving", async ({ page }) => {
  const model = `Few${tag()}`.slice(0, 20);
  await soldFor(model, 3575);
  await soldFor(model, 4550);
  const lot = await openLot(model, { runs: true });
  await page.goto(`/auctions/${lot.id}`);
  await expect(page.getByTestId("likely-price")).toHaveText(
    "Likely price: $2,850.00 – $5,475.00 (few sales: wide range, from 2 comparable sales)",
  );
  await expect(page.getByTestId("comparable-median")).toContainText(
    "(from $3,575.00 to $4,550.00)",
  );
  if (jsEnabled()) await typeBid(page, "1000");
  await expect(page.getByText(/under the likely price/)).toHaveCount(0);
});

test("a budget already below the minimum bid is said to be passed", async ({ page }) => {
  const lot = await openLot(`Budget${tag()}`.slice(0, 20), { runs: true, currentBid: 500 });
  await page.goto(`/auctions/${lot.id}`);
  await ready(page);
  const card = page.locator("#all-in");
  await card.getByLabel("Most I will pay all in ($)").fill("400");
  await card.getByRole("button", { name: "Work it out" }).click();
  await expect(card.getByTestId("max-bid")).toContainText(
    "Your budget is already passed: the minimum bid on this lot is $550.00.",
  );
  await card.getByLabel("Most I will pay all in ($)").fill("3000");
  await card.getByRole("button", { name: "Work it out" }).click();
  await expect(card.getByTestId("max-bid")).toHaveText(
    /^To pay at most \$3,000\.00 all in, bid up to \$[\d,]+\.00\.$/,
  );
});
