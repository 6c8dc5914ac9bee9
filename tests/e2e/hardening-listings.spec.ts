// A bad filter value in a /community-vehicles link: the results still show (without it), a notice
// names each left-out filter and why, and the filter form marks the field, with and without JS.
import { expect, test } from "@playwright/test";
import { ensureUser, query } from "./db";
import { ready } from "./helpers";

// Model years run to next year.
const LAST_YEAR = new Date().getUTCFullYear() + 1;
const YEARS = `enter a year between 1900 and ${LAST_YEAR}`;

test("bad filter values are left out, named and marked on their fields", async ({ page }) => {
  const tag = `ign${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const seller = await ensureUser(`${tag}@bidyard.test`, { first_name: "Ida" });
  await query(
    `insert into listings (user_id, title, description, make, model, year, price, currency,
       condition, body_type, country, state, city)
     values ($1, $2, '', 'Toyota', 'Corolla', 2018, '12000.00', 'USD', 'good', 'sedan', 'US',
       'TX', 'Austin')`,
    [seller, `Plain Corolla ${tag}`],
  );

  await page.goto(`/community-vehicles?search=${tag}&yearMin=1800&priceMin=-5&yearMax=abc`);
  await ready(page);

  await expect(page.getByRole("heading", { name: "1 vehicles found" })).toBeVisible();
  await expect(page.getByRole("heading", { name: `Plain Corolla ${tag}` })).toBeVisible();

  const notice = page.getByRole("status").filter({ hasText: "could not be used" });
  await expect(notice).toContainText("3 filters could not be used");
  await expect(notice.getByRole("listitem")).toHaveText([
    `Year from: ${YEARS} — ignored`,
    `Year to: ${YEARS} — ignored`,
    "Price from: enter an amount of 0 or more, like 15000 or 15000.50 — ignored",
  ]);

  const filters = page.getByRole("form", { name: "Filters" });
  const yearFrom = filters.getByRole("textbox", { name: "Year From" });
  await expect(yearFrom).toHaveValue("1800");
  await expect(yearFrom).toHaveAttribute("aria-invalid", "true");
  await expect(yearFrom).toHaveAccessibleDescription(`Enter a year between 1900 and ${LAST_YEAR}`);
  const priceFrom = filters.getByRole("textbox", { name: "Price From" });
  await expect(priceFrom).toHaveValue("-5");
  await expect(priceFrom).toHaveAccessibleDescription(/^Enter an amount of 0 or more/);
  const priceTo = filters.getByRole("textbox", { name: "Price To" });
  await expect(priceTo).not.toHaveAttribute("aria-invalid", /.*/);

  // Correcting the field and applying the filters clears the notice and the error.
  await yearFrom.fill("2015");
  await priceFrom.fill("");
  await filters.getByRole("textbox", { name: "Year To" }).fill("");
  await filters.getByRole("button", { name: "Apply Filters" }).click();
  await expect(page).toHaveURL(/yearMin=2015/);
  await expect(page.getByRole("heading", { name: "1 vehicles found" })).toBeVisible();
  await expect(page.getByText("could not be used")).toHaveCount(0);
  await expect(
    page.getByRole("form", { name: "Filters" }).getByRole("textbox", { name: "Year From" }),
  ).not.toHaveAttribute("aria-invalid", /.*/);
});
