import { expect, test } from "@playwright/test";
import { ready } from "./helpers";

test.describe("landing page", () => {
  test("shows the hero, the sign-in panel, the features and the footer", async ({ page }) => {
    await page.goto("/");
    await ready(page);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    for (const name of ["Buy It Now", "Clean Title", "Auction Today"]) {
      await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(page.getByRole("heading", { name: "Start Bidding Today" })).toBeVisible();
    for (const name of ["Live Auctions", "Verified Identities", "Best Prices", "Global Access"]) {
      await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
    }
    // what "verified" means, and no claim that every seller is
    await expect(
      page.getByText(/Every bidder verifies a government ID before bidding/),
    ).toBeVisible();
    await expect(page.getByText(/carry an “ID verified” badge/)).toBeVisible();
    await expect(page.getByText(/Every bidder and seller verifies/)).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Browse Vehicles" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Join Now" })).toBeVisible();
    const footer = page.locator("footer");
    for (const href of [
      "/auctions",
      "/community-vehicles",
      "/membership",
      "/post-vehicle",
      "/kyc-verification",
      "/deposit",
      "/service-orders",
      "/affiliate-registration",
    ]) {
      await expect(footer.locator(`a[href="${href}"]`)).toHaveCount(1);
    }
  });

  test("says what a first bid takes, and ends on its call to action", async ({ page }) => {
    await page.goto("/");
    await ready(page);
    const steps = page.getByRole("list", { name: "Before your first bid" }).getByRole("listitem");
    await expect(steps).toHaveCount(3);
    await expect(steps.nth(0)).toContainText("Verify your ID");
    await expect(steps.nth(1)).toContainText("Deposit $400.00 or more");
    await expect(steps.nth(2)).toContainText("Bid live or set a maximum");
    // the call to action's colour meets the footer: no empty band between them
    const cta = page.locator("section", {
      has: page.getByRole("heading", { name: "Ready to find your next vehicle?" }),
    });
    const ctaBox = (await cta.boundingBox())!;
    const footerBox = (await page.locator("footer").boundingBox())!;
    expect(Math.abs(ctaBox.y + ctaBox.height - footerBox.y)).toBeLessThanOrEqual(1);
  });

  test("its links lead where they say", async ({ page }) => {
    await page.goto("/");
    await ready(page);
    await page.getByRole("link", { name: "Clean Title", exact: true }).click();
    await expect(page).toHaveURL(/\/community-vehicles\?condition=excellent$/);

    await page.goto("/");
    await ready(page);
    await page.getByLabel("Model or keyword").fill("Camry");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/community-vehicles\?make=&search=Camry$/);
  });

  test("unknown paths show Page Not Found with a 404", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  });

  test("/healthz answers 200", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
  });

  test("/favicon.ico is an icon, not the 404 page (browsers ask for it on every site)", async ({
    request,
  }) => {
    const response = await request.get("/favicon.ico");
    expect(response.status()).toBe(200);
    const bytes = await response.body();
    // An ICO file starts with reserved 0, type 1 (icon).
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  });
});
