// Ship it to a ZIP code, and the order names the vehicle as the yard does (docs/decisions/2705):
// JavaScript on (1280 px) and off (360 px).
import { expect, test } from "@playwright/test";
import { tag } from "./arrange";
import { query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

test("a CR-V shipped to 90210: an SUV, the auction's lot number, the ZIP's area", async ({
  page,
  context,
}) => {
  test.slow();
  await page.setViewportSize(
    jsEnabled() ? { width: 1280, height: 900 } : { width: 360, height: 740 },
  );
  const buyerId = await signInAs(
    context,
    `e2e-crv-${test.info().project.name}-${tag()}@bidyard.test`,
    { first_name: "Cara" },
  );
  const lotNumber = `C${tag()}`.slice(0, 12);
  const [lot] = await query<{ id: string }>(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, body_style,
       location_city, location_state, yard_name, starts_at, ends_at, status, current_bid,
       high_bidder_id, high_max, closed_at)
     VALUES ('copart', $1, '5J6RW2H89HL000000', 2017, 'Honda', 'CR-V', '4DR SPOR', 'Dallas', 'TX',
       'Copart Dallas', now() - interval '2 days', now() - interval '1 hour', 'sold', 4000, $2,
       4000, now())
     RETURNING id`,
    [lotNumber, buyerId],
  );
  await query(
    `INSERT INTO purchases (lot_id, user_id, amount, status, paid_at)
     VALUES ($1, $2, 4000, 'paid', now())`,
    [lot.id, buyerId],
  );

  await page.goto(`/service-orders/request?lot=${lot.id}`);
  await expect(page.getByRole("heading", { name: "2017 Honda CR-V" })).toBeVisible();
  await ready(page);
  await page.getByLabel("Delivery ZIP, or city, ST (shipping)").fill("90210");
  // the price first, before anything is asked for (record 3323)
  await page.getByRole("button", { name: "See price" }).click();
  const quote = page.getByTestId("transport-quote");
  await expect(quote).toContainText(/^Price: \$[\d,]+\.\d{2}/);
  await expect(quote).toContainText(
    /Shipping from Dallas, TX to .+, CA 90210, about [\d,]+ road miles\./,
  );
  await expect(quote).toContainText("Nothing is charged yet");
  const quoted = (await quote.locator("p").first().textContent())!.replace("Price: ", "");
  expect(await query("SELECT id FROM service_orders WHERE lot_id = $1", [lot.id])).toEqual([]);
  // the typed destination is still there to request
  await expect(page.getByLabel("Delivery ZIP, or city, ST (shipping)")).toHaveValue("90210");
  await ready(page);
  await page.getByRole("button", { name: "Request service" }).click();

  await expect(page.getByRole("heading", { name: "2017 Honda CR-V", level: 1 })).toBeVisible();
  const facts = page.locator("dl").last();
  await expect(facts).toContainText("SUV");
  await expect(facts).not.toContainText("Sedan");
  // one vehicle line: the type, not the type and the body style again
  await expect(facts.getByText("Vehicle type")).toHaveCount(1);
  await expect(facts.getByText(/Body (type|style)/)).toHaveCount(0);
  await expect(facts).not.toContainText("4DR SPOR");
  await expect(facts.getByText(quoted, { exact: true })).toBeVisible();
  await expect(facts).toContainText(`Copart lot ${lotNumber}`);
  await expect(facts).not.toContainText(`#${lot.id}`);
  await expect(facts).toContainText(/90210 \(.+, CA area\)/);
  await page.screenshot({
    path: test.info().outputPath(`transport-${test.info().project.name}.png`),
    fullPage: true,
  });
});
