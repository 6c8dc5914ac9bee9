import { expect, test, type Page } from "@playwright/test";
import sharp from "sharp";
import { ensureUser, query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

function unique(prefix: string) {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

async function insertListing(userId: string, fields: Record<string, unknown>) {
  const row = {
    title: "Seeded vehicle",
    description: "",
    make: "Toyota",
    model: "Corolla",
    year: 2018,
    price: "12000.00",
    currency: "USD",
    condition: "good",
    body_type: "sedan",
    country: "US",
    state: "TX",
    city: "Austin",
    ...fields,
  };
  const keys = Object.keys(row);
  const rows = await query<{ id: string }>(
    `insert into listings (user_id, ${keys.join(", ")})
     values ($1, ${keys.map((_, i) => `$${i + 2}`).join(", ")}) returning id`,
    [userId, ...Object.values(row)],
  );
  return rows[0].id;
}

async function resultsHeading(page: Page) {
  return page.getByRole("heading", { name: /vehicles found$/ });
}

test.describe("community vehicles", () => {
  test("search with the filter form and the auto finder, then clear the filters", async ({
    page,
  }) => {
    const tag = unique("srch");
    const seller = await ensureUser(`${tag}@bidyard.test`, { first_name: "Sal" });
    await insertListing(seller, {
      title: `Pearl Camry ${tag}`,
      make: "Toyota",
      model: "Camry",
      year: 2020,
      condition: "excellent",
    });
    await insertListing(seller, {
      title: `Rusty Ranger ${tag}`,
      make: "Ford",
      model: "Ranger",
      year: 2009,
      condition: "poor",
      body_type: "truck",
    });

    await page.goto("/community-vehicles");
    await ready(page);
    const filters = page.getByRole("form", { name: "Filters" });
    await filters.getByLabel("Search").fill(tag);
    await filters.getByLabel("Condition").selectOption("excellent");
    await filters.getByRole("button", { name: "Apply Filters" }).click();
    await expect(page).toHaveURL(new RegExp(`search=${tag}.*condition=excellent`));
    await expect(await resultsHeading(page)).toHaveText("1 vehicles found");
    await expect(page.getByRole("heading", { name: `Pearl Camry ${tag}` })).toBeVisible();
    await expect(page.getByText(`Rusty Ranger ${tag}`)).toHaveCount(0);

    // The shareable link from the landing page's Clean Title button.
    await page.goto(`/community-vehicles?condition=poor&search=${tag}`);
    await expect(await resultsHeading(page)).toHaveText("1 vehicles found");
    await expect(page.getByRole("heading", { name: `Rusty Ranger ${tag}` })).toBeVisible();
    await expect(page.getByLabel("Condition")).toHaveValue("poor");

    await ready(page);
    const finder = page.getByRole("form", { name: "Vehicle Auto Finder" });
    await finder.getByLabel("Make").selectOption("Ford");
    await finder.getByLabel("Model").fill("Ranger");
    await finder.getByLabel("From year").selectOption("2012");
    await finder.getByRole("button", { name: "Start Search" }).click();
    await expect(page).toHaveURL(/make=Ford/);
    await expect(page.getByText(`Rusty Ranger ${tag}`)).toHaveCount(0);

    await page.goto(`/community-vehicles?search=${tag}&make=Ford&model=Ranger`);
    await expect(await resultsHeading(page)).toHaveText("1 vehicles found");
    await ready(page);
    await page.getByRole("link", { name: "Clear All Filters" }).click();
    await expect(page).toHaveURL(/\/community-vehicles$/);
    await expect(page.getByLabel("Search")).toHaveValue("");

    await page.goto(`/community-vehicles?search=${tag}-nothing`);
    await expect(page.getByText("No vehicles found")).toBeVisible();
  });

  test("post a vehicle after a validation error", async ({ page, context }) => {
    const tag = unique("post");
    await signInAs(context, `${tag}@bidyard.test`, { first_name: "Pat" });
    await page.goto("/post-vehicle");
    await expect(page.getByText("You have 3 free listings remaining.")).toBeVisible();
    await ready(page);

    await page.getByLabel(/^Title/).fill(`My Civic ${tag}`);
    await page.getByLabel(/^Price/).fill("9500");
    await page.getByRole("button", { name: "Post Vehicle" }).click();
    await expect(
      page.getByText("Missing Information: Please fill in all required fields."),
    ).toBeVisible();
    await expect(page.getByText("Make is required")).toBeVisible();
    await expect(page.getByText("City is required")).toBeVisible();

    await page.getByLabel(/^Make/).fill("Honda");
    await page.getByLabel(/^Model/).fill("Civic");
    await page.getByLabel(/^Year/).fill("2016");
    await page.getByLabel(/^Mileage/).fill("88,000");
    await page.getByLabel(/^Condition/).selectOption("good");
    await page.getByLabel("Currency").selectOption("CAD");
    await page.getByLabel("Country").selectOption("CA");
    await page.getByLabel("State/Province").fill("ON");
    await page.getByLabel(/^City/).fill("Toronto");
    await page.getByLabel("Description").fill("Winter tires included.");
    await page.getByRole("button", { name: "Post Vehicle" }).click();

    await expect(page).toHaveURL(/\/vehicle\/\d+$/);
    await expect(page.getByText("Vehicle Posted Successfully!")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`My Civic ${tag}`);
    await expect(page.getByText("CA$9,500").first()).toBeVisible();
    await expect(page.getByText("88,000 mi").first()).toBeVisible();
    await expect(page.getByText("Winter tires included.")).toBeVisible();
    await expect(page.getByText("Member since")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Manage your listing" })).toBeVisible();

    await page.goto("/community-vehicles");
    await expect(page.getByRole("heading", { name: "Listing Dashboard" })).toBeVisible();
    const dashboard = page.getByRole("region", { name: "Listing Dashboard" });
    await expect(dashboard.getByText("Free Listings Left")).toBeVisible();
    await expect(dashboard.locator("dd").nth(2)).toHaveText("2");
  });

  test("listings of sellers with a verified ID carry a badge; others do not", async ({ page }) => {
    const tag = unique("idv");
    const verified = await ensureUser(`${tag}-v@bidyard.test`, {
      first_name: "Vera",
      verified: true,
    });
    const pending = await ensureUser(`${tag}-p@bidyard.test`, {
      first_name: "Penn",
      verified: false,
    });
    const verifiedId = await insertListing(verified, { title: `Checked Camry ${tag}` });
    const pendingId = await insertListing(pending, { title: `Unchecked Camry ${tag}` });

    await page.goto(`/community-vehicles?search=${tag}`);
    const card = (title: string) =>
      page.locator("article").filter({ has: page.getByRole("heading", { name: title }) });
    await expect(card(`Checked Camry ${tag}`).getByTestId("id-verified")).toHaveText("ID verified");
    await expect(card(`Unchecked Camry ${tag}`).getByTestId("id-verified")).toHaveCount(0);

    await page.goto(`/vehicle/${verifiedId}`);
    const seller = page.getByRole("region", { name: "Seller" });
    await expect(seller.getByTestId("id-verified")).toBeVisible();
    await expect(seller).toContainText("government ID was checked and approved by our team");
    await page.goto(`/vehicle/${pendingId}`);
    await expect(
      page.getByRole("region", { name: "Seller" }).getByTestId("id-verified"),
    ).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Seller" })).toContainText(
      "has not verified an ID",
    );
  });

  test("posting fills body type and fuel from the VIN (as it is typed with JS, on posting without)", async ({
    page,
    context,
  }) => {
    const tag = unique("vin");
    await signInAs(context, `${tag}@bidyard.test`, { first_name: "Vin" });
    await page.goto("/post-vehicle");
    await ready(page);
    await page.getByLabel(/^Title/).fill(`RAV4 ${tag}`);
    await page.getByLabel(/^Price/).fill("17500");
    await page.getByLabel(/^Condition/).selectOption("good");
    await page.getByLabel(/^City/).fill("Austin");
    // a real 2019 RAV4 LE descriptor (it decodes to an SUV, gasoline)
    await page.getByLabel(/^VIN/).fill("2T3P1RFV5KC123456");
    if (jsEnabled()) {
      await expect(page.getByTestId("vin-facts")).toHaveText(
        "From the VIN: 2019 Toyota RAV4 · SUV · gasoline",
      );
      await expect(page.getByLabel(/^Make/)).toHaveValue("Toyota");
      await expect(page.getByLabel(/^Model/)).toHaveValue("RAV4");
      await expect(page.getByLabel(/^Year/)).toHaveValue("2019");
      await expect(page.getByLabel("Body type")).toHaveValue("suv");
      await expect(page.getByLabel("Fuel type")).toHaveValue("gasoline");
    } else {
      await page.getByLabel(/^Make/).fill("Toyota");
      await page.getByLabel(/^Model/).fill("RAV4");
      await page.getByLabel(/^Year/).fill("2019");
      await expect(page.getByLabel("Body type")).toHaveValue("");
    }
    await page.getByRole("button", { name: "Post Vehicle" }).click();

    await expect(page).toHaveURL(/\/vehicle\/\d+$/);
    const details = page.getByRole("region", { name: "Vehicle Details" });
    await expect(details.locator("div", { hasText: /^Body type/ })).toHaveText("Body typeSUV");
    await expect(details.locator("div", { hasText: /^Fuel type/ })).toHaveText("Fuel typeGasoline");
  });

  test("post a vehicle with photos", async ({ page, context }) => {
    const tag = unique("photo");
    await signInAs(context, `${tag}@bidyard.test`);
    const png = await sharp({
      create: { width: 1200, height: 900, channels: 3, background: { r: 30, g: 90, b: 200 } },
    })
      .png()
      .toBuffer();
    await page.goto("/post-vehicle");
    await ready(page);
    await page.getByLabel(/^Title/).fill(`Photo Golf ${tag}`);
    await page.getByLabel(/^Price/).fill("15000");
    await page.getByLabel(/^Make/).fill("Volkswagen");
    await page.getByLabel(/^Model/).fill("Golf");
    await page.getByLabel(/^Year/).fill("2019");
    await page.getByLabel(/^Condition/).selectOption("excellent");
    await page.getByLabel(/^City/).fill("Seattle");
    await page.getByLabel(/^Photos/).setInputFiles([
      { name: "front.png", mimeType: "image/png", buffer: png },
      { name: "side.png", mimeType: "image/png", buffer: png },
    ]);
    // With JS the form goes through POST /api/vehicles to show upload progress.
    const upload = jsEnabled()
      ? page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/api/vehicles"))
      : null;
    await page.getByRole("button", { name: "Post Vehicle" }).click();
    await upload;
    await expect(page).toHaveURL(/\/vehicle\/\d+$/);
    await expect(page.getByText("Your vehicle is now live and visible to buyers.")).toBeVisible();
    const main = page.getByRole("img", { name: /photo 1 of 2/ });
    await expect(main).toBeVisible();
    await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
    await page.goto(`/community-vehicles?search=${tag}`);
    const card = page
      .locator("article", { hasText: `Photo Golf ${tag}` })
      .locator("img")
      .first();
    await expect.poll(() => card.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
  });

  test("a seller with no free listings left is told why and shown the way on, not a dead form", async ({
    page,
    context,
  }) => {
    // JS on at 1,280 px, off at 360 px (record 3322)
    await page.setViewportSize(
      jsEnabled() ? { width: 1280, height: 900 } : { width: 360, height: 800 },
    );
    const tag = unique("limit");
    const userId = await signInAs(context, `${tag}@bidyard.test`);
    for (let i = 0; i < 3; i++) await insertListing(userId, { title: `Old ${i} ${tag}` });
    await page.goto("/post-vehicle");
    const panel = page.getByRole("region", { name: "You have used your 3 free listings" });
    await expect(panel).toBeVisible();
    await expect(panel).toContainText(
      "A free account can post 3 vehicles in all, and deleted listings count too. A membership lets you post more vehicles",
    );
    await expect(panel.getByRole("link", { name: "See membership plans" })).toHaveAttribute(
      "href",
      "/membership",
    );
    // no form that cannot be sent
    await expect(page.getByRole("button", { name: "Post Vehicle" })).toHaveCount(0);
    await expect(page.getByLabel(/^Title/)).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      jsEnabled() ? 1280 : 360,
    );
    await ready(page);
    await panel.getByRole("link", { name: "See membership plans" }).click();
    await expect(page).toHaveURL(/\/membership$/);
    await expect(page.getByRole("heading", { name: "Choose Your Membership Plan" })).toBeVisible();
  });

  test("markup in titles and descriptions is shown as text, never run", async ({ page }) => {
    const tag = unique("xss");
    const seller = await ensureUser(`${tag}@bidyard.test`);
    const title = `<script>window.__xss = 1</script><b>${tag}</b>`;
    const description = `<img src=x onerror="window.__xss = 2">Nice car`;
    const id = await insertListing(seller, { title, description });

    await page.goto(`/vehicle/${id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.getByText(description)).toBeVisible();
    await expect(page.locator("main b")).toHaveCount(0);
    await page.goto(`/community-vehicles?search=${tag}`);
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    if (jsEnabled()) {
      await ready(page);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    }
  });

  test("owners edit, mark sold and delete; favourites are saved for signed-in users", async ({
    page,
    context,
  }) => {
    const tag = unique("own");
    const owner = await signInAs(context, `${tag}@bidyard.test`);
    const other = await ensureUser(`${tag}-other@bidyard.test`);
    const mine = await insertListing(owner, { title: `Mine ${tag}` });
    const theirs = await insertListing(other, { title: `Theirs ${tag}` });

    await page.goto(`/community-vehicles?search=${tag}`);
    await ready(page);
    const save = page.getByRole("button", { name: "Save to favorites" }).first();
    // with JS the heart turns at once (optimistic): wait for the save itself before leaving, or
    // the navigation can cancel it
    await Promise.all([
      page.waitForResponse(
        (r) =>
          r.request().method() === "POST" &&
          new URL(r.url()).pathname.startsWith("/community-vehicles"),
      ),
      save.click(),
    ]);
    await expect(page.getByRole("button", { name: "Remove from favorites" })).toHaveCount(1);
    await page.goto(`/vehicle/${theirs}`);
    await expect(page.getByRole("button", { name: "Remove from favorites" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Manage your listing" })).toHaveCount(0);

    await page.goto(`/vehicle/${mine}`);
    await ready(page);
    await page.getByRole("link", { name: "Edit" }).click();
    await expect(page.getByRole("heading", { name: "Edit listing" })).toBeVisible();
    await page.getByLabel(/^Price/).fill("13250.75");
    await page.getByLabel(/^Year/).fill("1850");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByText("Year must be 1900 or later")).toBeVisible();
    await page.getByLabel(/^Year/).fill("2018");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Mine ${tag}`);
    await expect(page.getByText("$13,250.75")).toBeVisible();
    await page.getByRole("button", { name: "Mark as Sold" }).click();
    await expect(page.getByText("Sold", { exact: true })).toBeVisible();
    await page.getByRole("link", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Yes, delete it" }).click();
    await expect(page).toHaveURL(/\/community-vehicles$/);
    const response = await page.goto(`/vehicle/${mine}`);
    expect(response?.status()).toBe(404);
  });

  test("load more pages by keyset", async ({ page }) => {
    await page.goto("/community-vehicles");
    await ready(page);
    const cards = page.locator("#results article");
    await expect(cards).toHaveCount(24);
    const firstTitle = await cards.first().locator("h3").textContent();
    await page.getByRole("link", { name: "Load more" }).click();
    if (jsEnabled()) {
      // Appended in place; the address stays shareable as the first page.
      await expect(cards).toHaveCount(48);
      await expect(page).toHaveURL(/\/community-vehicles$/);
      await expect(cards.first().locator("h3")).toHaveText(firstTitle!);
    } else {
      await expect(page).toHaveURL(/cursor=/);
      await expect(cards).toHaveCount(24);
      await expect(cards.first().locator("h3")).not.toHaveText(firstTitle!);
      await expect(page.getByRole("link", { name: "Back to the first page" })).toBeVisible();
    }
    const titles = await cards.locator("h3").allTextContents();
    expect(new Set(titles.map((t, i) => `${t}#${i}`)).size).toBe(titles.length);
  });

  test("a visitor who saves a favourite is sent to sign in", async ({ page }) => {
    const tag = unique("fav");
    const seller = await ensureUser(`${tag}@bidyard.test`);
    await insertListing(seller, { title: `Fav ${tag}` });
    await page.goto(`/community-vehicles?search=${tag}`);
    await ready(page);
    const toSignIn = page.waitForRequest((request) =>
      request.url().includes("/api/login?returnTo="),
    );
    await page.getByRole("button", { name: "Save to favorites" }).click();
    await toSignIn;
    await expect(page.getByLabel("E-mail")).toBeVisible();
  });
});
