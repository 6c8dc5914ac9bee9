// Issue 28, errors: a person's ordinary mistake is answered beside the field it is about, with
// JavaScript on and off, never with a page of its own; a number past its limit says the limit;
// an upload that can never pass says why and holds the application back; an error appearing
// never moves the checkbox under the pointer.
import { expect, test, type Page } from "@playwright/test";
import { createLot, createListing, tag } from "./arrange";
import { ensureUser, query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

const unique = (name: string) => `e2e-${name}-${test.info().project.name}-${tag()}@bidyard.test`;

async function press(page: Page, name: string | RegExp) {
  await ready(page);
  await page.getByRole("button", { name, exact: typeof name === "string" }).click();
}

test("reporting a message with an empty reason answers under the reason", async ({
  page,
  context,
}) => {
  const sellerId = await signInAs(context, unique("seller"), { first_name: "Sally" });
  const buyerId = await ensureUser(unique("buyer"), { first_name: "Bob" });
  const listingId = await createListing(sellerId, `Reported car ${tag()}`);
  const [{ id: threadId }] = await query<{ id: string }>(
    `WITH thread AS (
       INSERT INTO message_threads (listing_id, buyer_id, seller_id) VALUES ($1, $2, $3)
       RETURNING id, buyer_id)
     INSERT INTO messages (thread_id, sender_id, body)
     SELECT id, buyer_id, 'Pay me by gift card' FROM thread RETURNING thread_id AS id`,
    [listingId, buyerId, sellerId],
  );
  await page.goto(`/messages/${threadId}`);
  await ready(page);
  await page.getByText("Report this message").click();
  await page.getByRole("button", { name: "Report to admins" }).click();
  await expect(page.getByText("Say what is wrong")).toBeVisible();
  // Still the conversation, the fold still open, the message beside its field.
  await expect(page.getByText("Pay me by gift card")).toBeVisible();
  await expect(page.getByLabel("What is wrong?")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("What is wrong?").fill("Asks for gift cards");
  await press(page, "Report to admins");
  await expect(page.getByText("Reported to the admins.")).toBeVisible();
});

test("a 550-character auction search keeps the filter form and says the limit", async ({
  page,
  context,
}) => {
  await signInAs(context, unique("searcher"));
  const response = await page.goto(`/auctions?make=Toyota&search=${"v".repeat(550)}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Live Auctions" })).toBeVisible();
  const form = page.getByRole("form", { name: "Filter auctions" });
  await expect(form.getByText("Use at most 60 characters")).toBeVisible();
  await expect(form.getByLabel("Search make, model or VIN")).toHaveValue("v".repeat(550));
  await expect(form.getByLabel("Make", { exact: true })).toHaveValue("Toyota");
  await expect(page.getByText(/One filter could not be used/)).toBeVisible();

  // Typed the other way round, a year range is turned round and said so.
  await page.goto("/auctions?yearMin=2025&yearMax=2012");
  await expect(
    page.getByText(/runs backwards, so these are the lots from 2012 to 2025/),
  ).toBeVisible();
  await expect(form.getByLabel("Year from")).toHaveValue("2012");
  await expect(form.getByLabel("Year to")).toHaveValue("2025");
});

test("the auction filters offer what the lots carry, with counts", async ({ page, context }) => {
  await signInAs(context, unique("filters"));
  await page.goto("/auctions");
  const form = page.getByRole("form", { name: "Filter auctions" });
  const makes = await form.getByLabel("Make").locator("option").allTextContents();
  // The demo lots hold far more than four makes; each choice says how many lots it has.
  expect(makes.length).toBeGreaterThan(5);
  expect(makes.slice(1).every((label) => /\(\d[\d,]*\)$/.test(label))).toBe(true);
  const states = await form.getByLabel("Location").locator("option").allTextContents();
  expect(states.length).toBeGreaterThan(5);
});

test("numbers past their limit say the limit", async ({ page, context }) => {
  await signInAs(context, unique("limits"), { verified: true, deposit: "5000.00" });

  await page.goto("/post-vehicle");
  await ready(page);
  await page.getByLabel("Price *").fill("99999999999999");
  await page.getByLabel("Mileage (miles)").fill("99999999999");
  await press(page, "Post Vehicle");
  await expect(page.getByText("Price must be at most 10,000,000")).toBeVisible();
  await expect(page.getByText("Mileage must be at most 2,000,000 miles")).toBeVisible();
  await expect(page.getByText(/at most 2 decimals/)).toHaveCount(0);
  await expect(page.getByText(/whole number/)).toHaveCount(0);

  const lot = await createLot({ model: `Corolla ${tag()}` });
  await page.goto(`/auctions/${lot.id}?bid=99999999999#all-in`);
  const allIn = page.getByRole("region", { name: "All-in cost if you win" });
  await expect(allIn.getByText("A bid: at most $10,000,000.00")).toBeVisible();
  await expect(allIn.getByLabel("If I win at ($)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter a bid like 2500.")).toHaveCount(0);
});

test.describe("the provider application", () => {
  const fill = async (page: Page, phone = "214-555-0100") => {
    await page.getByLabel("Company name").fill(`Carrier ${tag()}`);
    await page.getByLabel("Shipping (domestic)").check();
    await page.getByLabel("Business phone").fill(phone);
    await page.getByLabel("Service areas").fill("Texas");
    await page.getByLabel(/I agree to the provider terms/).check();
  };

  test("a phone number must be one", async ({ page, context }) => {
    await signInAs(context, unique("phone"));
    await page.goto("/affiliate-registration");
    await ready(page);
    await fill(page, "call me maybe 😀");
    await press(page, "Submit Application");
    await expect(page.getByText("Enter a phone number, like 214-555-0100")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Become a Service Provider" })).toBeVisible();
  });

  test("a licence that cannot pass says why and holds the application back", async ({
    page,
    context,
  }) => {
    const email = unique("licence");
    await signInAs(context, email);
    await page.goto("/affiliate-registration");
    await ready(page);
    await fill(page);
    const document = page.getByLabel("Licence or business document (optional)");
    await document.setInputFiles({
      name: "licence.exe",
      mimeType: "application/x-msdownload",
      buffer: Buffer.from("MZ\x90\x00\x03\x00\x00\x00 not a document"),
    });
    if (jsEnabled()) {
      await expect(page.getByText(/This file cannot be used\. Only JPG, PNG or PDF/)).toBeVisible();
      await expect(page.getByText(/try again/i)).toHaveCount(0);
      // The application waits until a document is there, or the choice is removed.
      await press(page, "Submit Application");
      await expect(page.getByText(/Your document did not upload/)).toBeVisible();
      await document.setInputFiles({
        name: "scan.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(20 * 1024 * 1024, 32)]),
      });
      await expect(page.getByText(/larger than 10 MB/)).toBeVisible();
      await expect(page.getByText(/try again/i)).toHaveCount(0);
      await press(page, "Remove this file");
      await expect(page.getByText(/larger than 10 MB/)).toHaveCount(0);
    } else {
      await press(page, "Submit Application");
      await expect(page.getByText(/Only JPG, PNG or PDF files are accepted/)).toBeVisible();
      await expect(page.getByText(/try again/i)).toHaveCount(0);
      await page.getByLabel(/I agree to the provider terms/).check();
    }
    const [{ n }] = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM affiliate_applications a JOIN users u ON u.id = a.user_id
        WHERE u.email = $1`,
      [email],
    );
    expect(n).toBe(0);
    await press(page, "Submit Application");
    await page.waitForURL((url) => url.pathname === "/");
  });
});

test("an error appearing under a field does not move the checkbox being clicked", async ({
  page,
  context,
}) => {
  test.skip(!jsEnabled(), "errors appear on leaving a field only with JavaScript");
  await signInAs(context, unique("shift"));
  await page.goto("/affiliate-registration");
  await ready(page);
  const terms = page.getByLabel(/I agree to the provider terms/);
  // Where the checkbox sits in the page (not the viewport, which scrolls to it).
  const top = () => terms.evaluate((box) => box.getBoundingClientRect().top + window.scrollY);
  const before = await top();
  // Leaving the empty field for the checkbox shows the field's error as the pointer comes down.
  await page.getByLabel("Service areas").focus();
  await terms.click();
  await expect(page.getByText("Service areas are required")).toBeVisible();
  await expect(terms).toBeChecked();
  expect(await top()).toBe(before);
});
