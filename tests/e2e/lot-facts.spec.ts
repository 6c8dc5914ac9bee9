// Issue 35, what a salvage buyer decides on: lot number, odometer, title and sale date on every
// card, the houses' own damage names on the cards and in the filter (grouped by kind), and a sort
// kept in the URL. JavaScript on at 1,280 px and off at 360 px.
import { expect, test } from "@playwright/test";
import { createLot, createWonLot, tag } from "./arrange";
import { ensureUser, lotClosed, query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

test.beforeEach(async ({ page }) => {
  if (!jsEnabled()) await page.setViewportSize({ width: 360, height: 740 });
});

async function arrangeLots() {
  const make = `Mk${tag()}`.slice(0, 18);
  const rows = [
    { model: "Alpha", year: 2012, bid: 900, damage: "REAR END", second: "SIDE", odo: 81234 },
    { model: "Bravo", year: 2021, bid: 150, damage: "FRONT END", second: null, odo: 12000 },
    { model: "Charlie", year: 2016, bid: 4200, damage: "HAIL", second: null, odo: null },
  ];
  const lots: { id: string; lot_number: string; model: string }[] = [];
  for (const [i, row] of rows.entries()) {
    const [lot] = await query<{ id: string; lot_number: string; model: string }>(
      `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
         location_state, damage_type, primary_damage, secondary_damage, title_type, odometer,
         current_bid, starts_at, ends_at)
       VALUES ('copart', $1, $2, $3, $4, $5, 'Dallas', 'TX', $6, $7, $8, 'salvage', $9, $10,
         now() - interval '1 hour', now() + $11::interval)
       RETURNING id, lot_number, model`,
      [
        `F${tag()}${i}`.slice(0, 20),
        `FACTS${tag()}${i}`.toUpperCase().padEnd(17, "0").slice(0, 17),
        row.year,
        make,
        row.model,
        row.damage === "HAIL" ? "hail" : "collision",
        row.damage,
        row.second,
        row.odo,
        row.bid,
        `${(i + 1) * 3} hours`,
      ],
    );
    lots.push(lot);
  }
  return { make, lots };
}

test("cards carry lot number, odometer, title, sale date and the house's damage words", async ({
  page,
  context,
}) => {
  await signInAs(context, `e2e-facts-${tag()}@bidyard.test`, { verified: true });
  const { make, lots } = await arrangeLots();
  await page.goto(`/auctions?search=${make}`);
  await ready(page);
  const card = page.getByRole("article", { name: new RegExp(`2012 ${make} Alpha`) });
  await expect(card).toContainText(`Lot ${lots[0].lot_number}`);
  await expect(card).toContainText("Odometer: 81,234 mi");
  await expect(card).toContainText("Title: Salvage");
  await expect(card).toContainText("Damage: REAR END / SIDE");
  await expect(card.getByText(/Sale date:/)).toBeVisible();
  await expect(
    page.getByRole("article", { name: new RegExp(`Charlie`) }).getByText("Odometer: Not stated"),
  ).toBeVisible();

  // the filter speaks the cards' words, grouped by kind: no "Collision (164)" beside "FRONT END"
  const damage = page.getByLabel("Primary damage");
  await expect(damage.locator('optgroup[label="Collision"] option[value="REAR END"]')).toHaveCount(
    1,
  );
  const labels = await damage.locator("option").allTextContents();
  expect(labels.filter((label) => /^Collision/.test(label))).toEqual([]);
  await damage.selectOption("REAR END");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/damage=REAR\+END/);
  await expect(page.getByText("1 auction found")).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(1);
  await expect(page.getByRole("article")).toContainText("Alpha");

  // the lot page names the same facts
  await page.getByRole("link", { name: `2012 ${make} Alpha` }).click();
  await expect(page.getByText(lots[0].lot_number).first()).toBeVisible();
  await expect(page.getByText("81,234 mi")).toBeVisible();
  // the sale date is the close, kept live beside the countdown
  await expect(page.getByTestId("ends-at")).toBeVisible();
  await expect(page.getByText("REAR END", { exact: true })).toBeVisible();
});

test("a sort control kept in the URL orders the list", async ({ page, context }) => {
  await signInAs(context, `e2e-sort-${tag()}@bidyard.test`, { verified: true });
  const { make } = await arrangeLots();
  await page.goto(`/auctions?search=${make}`);
  await ready(page);
  const models = () => page.getByRole("article").getByRole("heading").allTextContents();
  // ending soonest by default
  expect((await models()).map((t) => t.split(" ").pop())).toEqual(["Alpha", "Bravo", "Charlie"]);

  await page.getByLabel("Sort by").selectOption("price_desc");
  // without JavaScript the order applies with Search; with it, at once
  if (!jsEnabled()) await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/sort=price_desc/);
  await expect
    .poll(async () => (await models()).map((t) => t.split(" ").pop()))
    .toEqual(["Charlie", "Alpha", "Bravo"]);
  await expect(page.getByLabel("Sort by")).toHaveValue("price_desc");

  await page.goto(`/auctions?search=${make}&sort=year_desc`);
  expect((await models()).map((t) => t.split(" ").pop())).toEqual(["Bravo", "Charlie", "Alpha"]);
  await page.goto(`/auctions?search=${make}&sort=newest`);
  await expect(page.getByLabel("Sort by")).toHaveValue("newest");
});

test("a won lot's Invoice and next steps opens its invoice", async ({ page, context }) => {
  const buyerId = await signInAs(context, `e2e-won-${tag()}@bidyard.test`, { verified: true });
  const lotId = await createWonLot(buyerId);
  const [purchase] = await query<{ id: string }>("SELECT id FROM purchases WHERE lot_id = $1", [
    lotId,
  ]);
  await page.goto(`/auctions/${lotId}`);
  await ready(page);
  await expect(page.getByTestId("leader-notice")).toContainText("You won this lot");
  await page.getByRole("link", { name: "Invoice and next steps" }).click();
  await expect(page).toHaveURL(new RegExp(`/purchases/${purchase.id}$`));
});

test("the bid history shows the proxy step that answered a bid", async ({ page, context }) => {
  const leaderId = await signInAs(context, `e2e-proxy-${tag()}@bidyard.test`, { verified: true });
  const otherId = await ensureUser(`e2e-proxy-other-${tag()}@bidyard.test`, { verified: true });
  const lot = await createLot();
  // the leader's proxy (typed $500, up to $2,000) answers another bidder's $600 with $700
  await query(
    `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, automatic, created_at)
     VALUES ($1, $2, 500, 2000, true, false, now() - interval '2 minutes'),
            ($1, $3, 600, 600, false, false, now() - interval '1 minute'),
            ($1, $2, 700, 2000, true, true, now() - interval '1 minute')`,
    [lot.id, leaderId, otherId],
  );
  await query(
    `UPDATE lots SET current_bid = 700, bid_count = 3, high_bidder_id = $2, high_max = 2000
      WHERE id = $1`,
    [lot.id, leaderId],
  );
  await page.goto(`/auctions/${lot.id}`);
  const history = page.getByTestId("bid-history");
  await expect(history.getByTestId("proxy-step")).toHaveCount(1);
  await expect(history.getByTestId("proxy-step")).toHaveText(
    /^Proxy step: your maximum answered Bidder \d+'s \$600\.00$/,
  );
});

test("the invoice asks deposit or gateway, with the buying power after each", async ({
  page,
  context,
}) => {
  const buyerId = await signInAs(context, `e2e-paychoice-${tag()}@bidyard.test`, {
    first_name: "Paz",
    verified: true,
    deposit: "1000.00",
  });
  const lot = await createLot({ model: "Corolla" });
  await query(
    `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, created_at)
     VALUES ($1, $2, 1000, 1000, false, now())`,
    [lot.id, buyerId],
  );
  await query(
    `UPDATE lots SET current_bid = 1000, high_max = 1000, high_bidder_id = $2, bid_count = 1,
       ends_at = now() - interval '1 second' WHERE id = $1`,
    [lot.id, buyerId],
  );
  await lotClosed(lot.id);
  await page.goto(`/auctions/${lot.id}`);
  await page.getByRole("link", { name: "Invoice and next steps" }).click();
  await expect(page.getByRole("heading", { name: "Invoice" })).toBeVisible();
  // the won bid holds the deposit until the invoice is paid
  await expect(page.getByTestId("buying-power-now")).toHaveText("$0.00");
  await expect(page.getByTestId("deposit-part")).toHaveText("$1,000.00");
  await expect(page.getByTestId("after-deposit")).toContainText(
    "Available for bidding afterwards: $0.00 (unchanged: this invoice already holds it). Your deposit goes down by $1,000.00.",
  );
  await expect(page.getByTestId("after-gateway")).toContainText(
    "Available for bidding afterwards: $1,000.00. Your deposit is not used",
  );
  const total = (await page.getByRole("button", { name: /with Test Gateway/ }).textContent())!
    .replace("Pay ", "")
    .replace(" with Test Gateway", "");

  await ready(page);
  await page.getByRole("button", { name: /with Test Gateway/ }).click();
  await expect(page.getByRole("heading", { name: "Test Checkout" })).toBeVisible();
  await expect(page.getByTestId("test-checkout-amount")).toHaveText(total);
  await page.getByRole("button", { name: "Approve payment" }).click();
  await expect(page.getByRole("heading", { name: "Vehicle release" })).toBeVisible();
  await expect(page.getByText(`Paid through the payment provider: ${total}`)).toBeVisible();
  // the deposit was not touched: bidding goes on with $1,000
  const [user] = await query<{ deposit: string }>("SELECT deposit::text FROM users WHERE id = $1", [
    buyerId,
  ]);
  expect(user.deposit).toBe("1000.00");
});

test("the release is a gate pass a yard would accept", async ({ page, context }) => {
  const buyerId = await signInAs(context, `e2e-gate-${tag()}@bidyard.test`, {
    first_name: "Gale",
    last_name: "Porter",
    verified: true,
  });
  const lotId = await createWonLot(buyerId, { paid: true });
  const [purchase] = await query<{ id: string }>(
    "UPDATE purchases SET pickup_code = 'GATE1234' WHERE lot_id = $1 RETURNING id",
    [lotId],
  );
  const [yard] = await query<{ street: string; phone: string; hours: string }>(
    "SELECT street, phone, hours FROM yards WHERE auction_house = 'copart' AND name = 'Copart Phoenix'",
  );
  expect(yard.street).toBeTruthy();
  await page.goto(`/purchases/${purchase.id}/release`);
  await expect(page.getByRole("heading", { name: "Vehicle release" })).toBeVisible();
  await expect(page.getByTestId("pickup-code")).toHaveText("GATE1234");
  await expect(page.getByTestId("buyer-name")).toHaveText("Gale Porter");
  const card = page.getByTestId("yard");
  await expect(card).toContainText("Yard: Copart Phoenix");
  await expect(card).toContainText(yard.street);
  await expect(card).toContainText("Phoenix, AZ 85043");
  await expect(card).toContainText(`Hours: ${yard.hours}`);
  await expect(card.getByRole("link", { name: yard.phone })).toBeVisible();
  await expect(page.getByTestId("carrier-line")).toContainText("Authorised carrier's name:");
  await expect(page.getByText("What was paid")).toHaveCount(1);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});
