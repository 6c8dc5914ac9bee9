// Issue 28, filters and lists: community prices compare in the buyer's currency at dated rates
// an admin keeps (the date shown), backwards ranges are turned round and said so, and the
// filters offer what the listings hold, with counts. JavaScript on and off.
import { expect, test } from "@playwright/test";
import { tag } from "./arrange";
import { ensureUser, query, signInAs } from "./db";
import { ready } from "./helpers";

async function pesoListing(title: string) {
  const sellerId = await ensureUser(`e2e-peso-${tag()}@bidyard.test`, { first_name: "Paz" });
  const [{ id }] = await query<{ id: string }>(
    `INSERT INTO listings (user_id, title, description, make, model, year, mileage, price,
       currency, condition, body_type, country, state, city)
     VALUES ($1, $2, '', 'GMC', 'Terrain', 2016, 60000, '58500.00', 'MXN', 'good', 'suv', 'MX',
       'NL', 'Monterrey')
     RETURNING id`,
    [sellerId, title],
  );
  return id;
}

test("a dollar budget finds a peso listing, at rates whose date is shown", async ({ page }) => {
  const title = `Terrain ${tag()}`;
  await pesoListing(title);
  await page.goto(`/community-vehicles?search=${encodeURIComponent(title)}&priceMax=10000`);
  await expect(page.getByRole("heading", { name: "1 vehicles found" })).toBeVisible();
  await expect(page.getByText("MX$58,500")).toBeVisible();
  await expect(page.getByText("≈ $3,000")).toBeVisible();
  // The rate and its date ("rates of Nov 20, 2026", or each rate's own date when they differ).
  await expect(page.getByTestId("conversion-note")).toContainText(
    /1 USD = .*19\.50 MXN.*[A-Z][a-z]{2} \d{1,2}, \d{4}/,
  );
  const filters = page.getByRole("form", { name: "Filters" });
  await expect(filters.getByText(/compared at 1 USD = .* MXN/)).toBeVisible();

  // In pesos, the same listing is within 60,000 and not within 50,000.
  await ready(page);
  await filters.getByLabel("Prices in").selectOption("MXN");
  await filters.getByLabel("Price To").fill("50000");
  await filters.getByRole("button", { name: "Apply Filters" }).click();
  await expect(page.getByRole("heading", { name: "0 vehicles found" })).toBeVisible();
  await expect(page).toHaveURL(/currency=MXN/);
});

test("community years typed backwards are turned round and said so", async ({ page }) => {
  const title = `Backwards ${tag()}`;
  await pesoListing(title);
  await page.goto(
    `/community-vehicles?search=${encodeURIComponent(title)}&yearMin=2025&yearMax=2012`,
  );
  await expect(
    page.getByText(/runs backwards, so these are the vehicles from 2012 to 2025/),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "1 vehicles found" })).toBeVisible();
  const filters = page.getByRole("form", { name: "Filters" });
  await expect(filters.getByLabel("Year From")).toHaveValue("2012");
  await expect(filters.getByLabel("Year To")).toHaveValue("2025");
});

test("the community filters offer what the listings hold, with counts", async ({ page }) => {
  await page.goto("/community-vehicles");
  const filters = page.getByRole("form", { name: "Filters" });
  const conditions = await filters.getByLabel("Condition").locator("option").allTextContents();
  expect(conditions.slice(1).every((label) => /\(\d[\d,]*\)$/.test(label))).toBe(true);
  const finder = page.getByRole("form", { name: "Vehicle Auto Finder" });
  const makes = await finder.getByLabel("Make").locator("option").allTextContents();
  expect(makes.length).toBeGreaterThan(5);
  expect(makes.slice(1).every((label) => /\(\d[\d,]*\)$/.test(label))).toBe(true);
});

test("an admin keeps the dated exchange rates", async ({ page, context }) => {
  await signInAs(context, `e2e-rates-${tag()}@bidyard.test`, { role: "admin" });
  await page.goto("/admin/exchange-rates");
  await ready(page);
  await expect(page.getByRole("heading", { name: "Exchange rates" })).toBeVisible();
  // A rate past the limit says the limit, under its field.
  await page.getByLabel("Currency").selectOption("MXN");
  await page.getByLabel("Units for 1 USD").fill("99999999999");
  await page.getByRole("button", { name: "Save rate" }).click();
  await expect(page.getByText("A rate is at most 100,000")).toBeVisible();

  // The same rate as of today: the date shown everywhere moves, the prices do not.
  const today = new Date().toISOString().slice(0, 10);
  const shown = new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${today}T00:00:00Z`));
  await ready(page);
  await page.getByLabel("Units for 1 USD").fill("19.5");
  await page.getByLabel("As of (date)").fill(today);
  await page.getByRole("button", { name: "Save rate" }).click();
  await expect(page.getByText(`1 USD = 19.50 MXN as of ${shown}.`)).toBeVisible();
  await expect(page.getByText(`As of ${shown}`).first()).toBeVisible();
  await page.goto("/community-vehicles");
  await expect(
    page.getByRole("form", { name: "Filters" }).getByText(`19.50 MXN (${shown})`),
  ).toBeVisible();
});
