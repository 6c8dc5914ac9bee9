import { expect, test } from "@playwright/test";
import { query, signInAs } from "./db";
import { ready } from "./helpers";

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

test.use({ viewport: { width: 360, height: 780 } });

test("sold results at 360 px: search by make, read the median, open a lot's comparable sales and decoded VIN", async ({
  page,
  context,
}) => {
  const buyer = await signInAs(context, `e2e-results-${unique()}@bidyard.test`, { verified: true });
  const make = `Mk${unique()}`.slice(0, 16);
  const prefix = `R${unique()}`.slice(0, 12);
  // three sold lots of one make and model (a real 2019 Honda Accord VIN each), at 4,000, 5,000, 6,000
  await query(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
       location_state, body_style, color, damage_type, primary_damage, title_type, starts_at,
       ends_at, status, closed_at, current_bid, bid_count, high_bidder_id, high_max)
     SELECT 'copart', $1 || g, '1HGCV1F33KA123456', 2019, $2, 'Accord', 'Austin', 'TX',
            'SEDAN 4D', 'BLUE', 'collision', 'FRONT END', 'salvage', now() - interval '5 days',
            now() - g * interval '1 day', 'sold', now() - g * interval '1 day', 3000 + g * 1000, 3,
            $3, 3000 + g * 1000
       FROM generate_series(1, 3) AS g`,
    [prefix, make, buyer],
  );

  // the page hydrates as its HTML was rendered: no React error (a mismatch re-renders the whole
  // page and drops what the buyer has typed)
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto("/auctions/results");
  await ready(page);
  await page.getByLabel("Make").fill(make);
  await page.getByRole("button", { name: "Search sold lots" }).click();
  await expect(page).toHaveURL(new RegExp(`make=${make}`));
  await expect(page.getByTestId("results-summary")).toHaveText(
    "3 sold · median $5,000.00 · middle half $4,500.00 – $5,500.00",
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(pageErrors).toEqual([]);

  await page
    .getByRole("link", { name: `2019 ${make} Accord` })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: "What similar lots sold for" })).toBeVisible();
  // no photos of its own: the drawing of its body style in its colour, and it says so
  const drawing = page.getByRole("img", {
    name: `Drawing of the 2019 ${make} Accord, a blue sedan`,
  });
  await expect(drawing).toBeVisible();
  await expect(drawing).toHaveAttribute("src", "/vehicle-art/sedan-blue.svg");
  await expect
    .poll(() => drawing.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  await expect(
    page.getByText("No photo yet: a drawing of its body style in its colour."),
  ).toBeVisible();
  await expect(page.getByTestId("comparable-median")).toContainText("Median of 2 sales");
  await expect(page.getByRole("heading", { name: "What the VIN says" })).toBeVisible();
  // the VIN is a Honda: the stated make disagrees and the buyer is told
  await expect(page.getByTestId("vin-warning")).toContainText("decodes to make Honda");

  // the sales themselves and every decoded fact are on pages of their own (record 3544)
  await ready(page);
  await page.getByRole("link", { name: "The 2 most recent comparable sales, with photos" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "What similar lots sold for" }),
  ).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Recent comparable sales" }).getByRole("listitem"),
  ).toHaveCount(2);
  await expect(page.getByTestId("comparable-median")).toContainText("Median of 2 sales");
  await ready(page);
  await page.getByRole("link", { name: /^← Back to the 2019/ }).click();
  await ready(page);
  await page
    .getByRole("link", {
      name: "Model year, body, drivetrain, engine and plant as the VIN decodes",
    })
    .click();
  await expect(page.getByRole("heading", { name: "What the VIN says" })).toBeVisible();
  await expect(page.getByText("Make and model")).toBeVisible();
  await expect(page.getByTestId("vin-warning")).toContainText("decodes to make Honda");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
