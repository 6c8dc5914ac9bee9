// Issue 44, the bidding part of the lot page: on a phone the price, the time left and the bid form
// come before the facts (record 3540), 1,280 px keeps two columns; a typed proxy maximum is never
// dropped (record 3541). JavaScript on at 1,280 px and off at 360 px.
import { expect, test } from "@playwright/test";
import { createLot, tag } from "./arrange";
import { query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

test.beforeEach(async ({ page, context }) => {
  if (!jsEnabled()) await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(context, `e2e-lotpage-${test.info().project.name}-${tag()}@bidyard.test`, {
    first_name: "Pia",
    verified: true,
    deposit: "5000.00",
  });
});

test("the price and the bid form before the facts on a phone; two columns at 1,280 px", async ({
  page,
}) => {
  const lot = await createLot({ model: "Corolla" });
  await page.goto(`/auctions/${lot.id}`);
  await ready(page);
  const price = await page.getByText("Current bid", { exact: true }).boundingBox();
  const form = await page.locator("#bid").boundingBox();
  const facts = await page.getByText("Lot number", { exact: true }).boundingBox();
  const photo = await page.getByRole("region", { name: "Photos" }).boundingBox();
  expect(price && form && facts && photo).toBeTruthy();
  if (jsEnabled()) {
    // two columns: the facts under the photo on the left, the price and form on the right
    expect(form!.x).toBeGreaterThan(facts!.x + facts!.width);
    expect(price!.x).toBeGreaterThan(photo!.x + photo!.width);
    expect(facts!.y).toBeGreaterThan(photo!.y + photo!.height - 1);
    // the price sits level with the photo, not below the facts
    expect(price!.y).toBeLessThan(photo!.y + photo!.height);
    // and with scripts on at 360 px, the same order as without
    await page.setViewportSize({ width: 360, height: 740 });
    const phonePrice = await page.getByText("Current bid", { exact: true }).boundingBox();
    const phoneForm = await page.locator("#bid").boundingBox();
    const phoneFacts = await page.getByText("Lot number", { exact: true }).boundingBox();
    expect(phoneForm!.y + phoneForm!.height).toBeLessThanOrEqual(phoneFacts!.y);
    expect(phonePrice!.y).toBeLessThan(phoneForm!.y);
  } else {
    // one column: price, then the form, then the facts, within the first screens
    expect(price!.y).toBeLessThan(form!.y);
    expect(form!.y + form!.height).toBeLessThanOrEqual(facts!.y);
    expect(price!.y).toBeLessThan(740);
    // nothing wider than the phone
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
  }
  await page.screenshot({
    path: test.info().outputPath(`lot-page-${test.info().project.name}.png`),
    fullPage: true,
  });
});

test("Auto Bid opens with Proxy bid ticked; a typed maximum is used or named", async ({ page }) => {
  const lot = await createLot({ model: "Yaris" });
  await page.goto(`/auctions/${lot.id}?proxy=1#bid`);
  await ready(page);
  const form = page.locator("#bid");
  const box = form.getByLabel("Proxy bid (bid for me up to a maximum)");
  await expect(box).toBeChecked();
  if (jsEnabled()) {
    // ticked with the maximum still empty: the message names the empty field
    await form.getByLabel("Bid amount (USD)").fill("350");
    await form.getByRole("button", { name: "Place Bid" }).click();
    await expect(
      form.getByText(
        "Maximum proxy bid is empty: enter the most you will bid, or untick Proxy bid.",
      ),
    ).toBeVisible();
    await expect(form.getByText(/must be higher than initial bid/)).toHaveCount(0);
    await form.getByLabel(/Maximum proxy bid/).fill("700");
    await form.getByRole("button", { name: "Place Bid" }).click();
  } else {
    // the box unticked and a $700 maximum typed beside a $350 bid: the maximum is used
    await page.goto(`/auctions/${lot.id}#bid`);
    await expect(box).not.toBeChecked();
    await form.getByLabel("Bid amount (USD)").fill("350");
    await form.getByLabel(/Maximum proxy bid/).fill("700");
    await form.getByRole("button", { name: "Place Bid" }).click();
  }
  await expect(page.getByText("(your maximum: $700.00)")).toBeVisible();
  const [row] = await query<{ high_max: string; current_bid: string }>(
    "SELECT high_max, current_bid FROM lots WHERE id = $1",
    [lot.id],
  );
  expect(row).toEqual({ high_max: "700.00", current_bid: "350.00" });
});
