// A session that ends while a long form is typed: the post is refused, the person signs in again
// and comes back to the form with what they typed, and a line saying so (record 3320). JS on at
// 1,280 px, off at 360 px.
import { expect, test, type Page } from "@playwright/test";
import { createListing, createWonLot, tag } from "./arrange";
import { query, signInAs } from "./db";
import { jsEnabled, ownClientAddress, ready, submitIssuerForm } from "./helpers";

const onIssuer = (url: URL) => url.hostname === "127.0.0.1";
const NOTICE = "We kept what you typed before your session ended.";

test.beforeEach(async ({ page, context }) => {
  await page.setViewportSize(
    jsEnabled() ? { width: 1280, height: 900 } : { width: 360, height: 800 },
  );
  await ownClientAddress(page);
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
});

async function signIn(page: Page, prefix: string) {
  const email = `e2e-kept-${prefix}-${test.info().project.name}-${tag()}@bidyard.test`;
  const userId = await signInAs(page.context(), email, { first_name: "Kim", verified: true });
  return { email, userId };
}

/** The session ends (expired, or signed out elsewhere) before the form is sent. */
async function endSession(userId: string) {
  await query("UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE user_id = $1", [
    userId,
  ]);
}

test("a listing typed while the session ended comes back after signing in again", async ({
  page,
}) => {
  test.slow();
  const { email, userId } = await signIn(page, "listing");
  const title = `Kept Civic ${tag()}`;
  await page.goto("/post-vehicle");
  await ready(page);
  await page.getByLabel(/^Title/).fill(title);
  await page.getByLabel(/^Price/).fill("9500");
  await page.getByLabel(/^Make/).fill("Honda");
  await page.getByLabel(/^Model/).fill("Civic");
  await page.getByLabel(/^Year/).fill("2016");
  await page.getByLabel(/^Condition/).selectOption("good");
  await page.getByLabel("Currency").selectOption("CAD");
  await page.getByLabel("Country").selectOption("CA");
  await page.getByLabel(/^City/).fill("Toronto");
  await page.getByLabel("Description").fill("Winter tires included.\nSecond line.");

  await endSession(userId);
  await page.getByRole("button", { name: "Post Vehicle" }).click();
  await page.waitForURL(onIssuer);
  expect(await query("SELECT id FROM listings WHERE title = $1", [title])).toEqual([]);

  await submitIssuerForm(page, email);
  await expect(page).toHaveURL(/\/post-vehicle$/);
  await expect(page.getByTestId("kept-form-notice")).toContainText(NOTICE);
  await expect(page.getByTestId("kept-form-notice")).toContainText(
    "Files are not kept: please choose them again.",
  );
  await expect(page.getByLabel(/^Title/)).toHaveValue(title);
  await expect(page.getByLabel(/^Price/)).toHaveValue("9500");
  await expect(page.getByLabel(/^Make/)).toHaveValue("Honda");
  await expect(page.getByLabel(/^Year/)).toHaveValue("2016");
  await expect(page.getByLabel(/^Condition/)).toHaveValue("good");
  await expect(page.getByLabel("Currency")).toHaveValue("CAD");
  await expect(page.getByLabel(/^City/)).toHaveValue("Toronto");
  await expect(page.getByLabel("Description")).toHaveValue("Winter tires included.\nSecond line.");

  // Sent now, it posts; the kept copy is used once, so a later visit starts clean.
  await page.getByRole("button", { name: "Post Vehicle" }).click();
  await expect(page).toHaveURL(/\/vehicle\/\d+$/);
  expect(await query("SELECT currency FROM listings WHERE title = $1", [title])).toEqual([
    { currency: "CAD" },
  ]);
  await page.goto("/post-vehicle");
  await expect(page.getByLabel(/^Title/)).toHaveValue("");
  await expect(page.getByTestId("kept-form-notice")).toHaveCount(0);
});

test("a listing with photos keeps its text, not its photos", async ({ page }) => {
  test.slow();
  const { email, userId } = await signIn(page, "photos");
  const title = `Kept Golf ${tag()}`;
  await page.goto("/post-vehicle");
  await ready(page);
  await page.getByLabel(/^Title/).fill(title);
  await page.getByLabel(/^Price/).fill("15000");
  await page.getByLabel(/^Make/).fill("Volkswagen");
  await page.getByLabel(/^Model/).fill("Golf");
  await page.getByLabel(/^Year/).fill("2019");
  await page.getByLabel(/^Condition/).selectOption("excellent");
  await page.getByLabel(/^City/).fill("Seattle");
  await page.getByLabel(/^Photos/).setInputFiles({
    name: "front.png",
    mimeType: "image/png",
    buffer: Buffer.from("89504e470d0a1a0a", "hex"),
  });
  await endSession(userId);
  await page.getByRole("button", { name: "Post Vehicle" }).click();
  await page.waitForURL(onIssuer);
  await submitIssuerForm(page, email);
  await expect(page).toHaveURL(/\/post-vehicle$/);
  await expect(page.getByTestId("kept-form-notice")).toContainText(NOTICE);
  await expect(page.getByLabel(/^Title/)).toHaveValue(title);
  await expect(page.getByLabel(/^Model/)).toHaveValue("Golf");
  await expect(page.getByLabel(/^Condition/)).toHaveValue("excellent");
});

test("a provider application typed while the session ended comes back", async ({ page }) => {
  test.slow();
  const { email, userId } = await signIn(page, "provider");
  const company = `Kept Haulers ${tag()}`;
  await page.goto("/affiliate-registration");
  await ready(page);
  await page.getByLabel("Company name").fill(company);
  await page.getByLabel("Export (international)").check();
  await page.getByLabel("Business phone").fill("214-555-0199");
  await page.getByLabel("Service areas").fill("Texas, Oklahoma");
  await page.getByLabel(/I agree to the provider terms/).check();

  await endSession(userId);
  await page.getByRole("button", { name: "Submit Application" }).click();
  await page.waitForURL(onIssuer);
  expect(
    await query("SELECT id FROM affiliate_applications WHERE company_name = $1", [company]),
  ).toEqual([]);
  await submitIssuerForm(page, email);
  await expect(page).toHaveURL(/\/affiliate-registration$/);
  await expect(page.getByTestId("kept-form-notice")).toContainText(NOTICE);
  await expect(page.getByLabel("Company name")).toHaveValue(company);
  await expect(page.getByLabel("Export (international)")).toBeChecked();
  await expect(page.getByLabel("Shipping (domestic)")).not.toBeChecked();
  await expect(page.getByLabel("Business phone")).toHaveValue("214-555-0199");
  await expect(page.getByLabel("Service areas")).toHaveValue("Texas, Oklahoma");
});

test("a transport request typed while the session ended comes back", async ({ page }) => {
  test.slow();
  const { email, userId } = await signIn(page, "transport");
  const lotId = await createWonLot(userId, { paid: true });
  await page.goto(`/service-orders/request?lot=${lotId}`);
  await ready(page);
  await page.getByLabel(/^Delivery ZIP/).fill("Houston, TX");

  await endSession(userId);
  await page.getByRole("button", { name: "Request service" }).click();
  await page.waitForURL(onIssuer);
  await submitIssuerForm(page, email);
  await expect(page).toHaveURL(new RegExp(`/service-orders/request\\?lot=${lotId}$`));
  await expect(page.getByTestId("kept-form-notice")).toContainText(NOTICE);
  await expect(page.getByLabel(/^Delivery ZIP/)).toHaveValue("Houston, TX");
});

test("a listing's edit typed while the session ended comes back in the edit form", async ({
  page,
}) => {
  test.slow();
  const { email, userId } = await signIn(page, "edit");
  const id = await createListing(userId, `Old title ${tag()}`);
  const title = `Edited Corolla ${tag()}`;
  await page.goto(`/vehicle/${id}?edit=1`);
  await ready(page);
  await page.getByLabel(/^Title/).fill(title);
  await page.getByLabel(/^Price/).fill("11500");

  await endSession(userId);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await page.waitForURL(onIssuer);
  expect(await query("SELECT title FROM listings WHERE id = $1", [id])).not.toEqual([{ title }]);
  await submitIssuerForm(page, email);
  await expect(page).toHaveURL(new RegExp(`/vehicle/${id}$`));
  await expect(page.getByRole("heading", { name: "Edit listing" })).toBeVisible();
  await expect(page.getByTestId("kept-form-notice")).toContainText(NOTICE);
  await expect(page.getByLabel(/^Title/)).toHaveValue(title);
  await expect(page.getByLabel(/^Price/)).toHaveValue("11500");
  await expect(page.getByLabel(/^Model/)).toHaveValue("Corolla");

  await ready(page);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  expect(await query("SELECT title FROM listings WHERE id = $1", [id])).toEqual([{ title }]);
});
