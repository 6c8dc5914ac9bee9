import { expect, test } from "@playwright/test";
import { query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

test("filters through a GET form, then Load More Auctions fetches the next page", async ({
  page,
  context,
}) => {
  await signInAs(context, `e2e-list-${unique()}@bidyard.test`, { verified: true });
  const make = `Mk${unique()}`.slice(0, 20);
  await query(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
       location_state, damage_type, starts_at, ends_at)
     SELECT CASE WHEN g % 2 = 0 THEN 'iaai' ELSE 'copart' END, $1 || g, 'LISTVIN' || lpad(g::text, 10, '0'),
            2020, $2, 'Demo', 'Austin', 'TX', 'hail', now() - interval '1 hour',
            now() + interval '2 hours' + g * interval '1 minute'
       FROM generate_series(1, 30) AS g`,
    [`L${unique()}`.slice(0, 14), make],
  );
  await page.goto(`/auctions?search=${make}`);
  await ready(page);
  await expect(page.getByText("30 auctions found")).toBeVisible();
  await page.getByLabel("Auction house").selectOption("iaai");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/auctionHouse=iaai/);
  await expect(page.getByText("15 auctions found")).toBeVisible();

  await page.goto(`/auctions?search=${make}`);
  await ready(page);
  await expect(page.getByRole("article")).toHaveCount(24);
  await page.getByRole("link", { name: "Load More Auctions" }).click();
  if (jsEnabled()) {
    await expect(page.getByRole("article")).toHaveCount(30);
  } else {
    await expect(page).toHaveURL(/cursor=/);
    await expect(page.getByRole("article")).toHaveCount(6);
  }
  await expect(page.getByRole("link", { name: "Load More Auctions" })).toHaveCount(0);
});

test("Watch on a lot that is starting soon", async ({ page, context }) => {
  await signInAs(context, `e2e-watch-${unique()}@bidyard.test`, { verified: true });
  const vin = `WATCH${unique()}`.toUpperCase().slice(0, 17);
  await query(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
       location_state, starts_at, ends_at)
     VALUES ('iaai', $1, $2, 2016, 'Honda', 'Civic', 'Miami', 'FL', now() + interval '3 hours',
       now() + interval '2 days')`,
    [`W${unique()}`.slice(0, 20), vin],
  );
  await page.goto(`/auctions?search=${vin}`);
  await ready(page);
  await expect(page.getByText("STARTING SOON")).toBeVisible();
  await expect(page.getByRole("link", { name: "Pre-Bid" })).toBeVisible();
  await page.getByRole("button", { name: "Watch" }).click();
  await expect(page.getByRole("button", { name: "Watching" })).toBeVisible();
  const rows = await query(
    "SELECT 1 FROM watchlist w JOIN lots l ON l.id = w.lot_id WHERE l.vin = $1",
    [vin],
  );
  expect(rows).toHaveLength(1);
});
