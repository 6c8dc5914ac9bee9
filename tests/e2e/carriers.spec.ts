// Carriers and pickup (records 3530-3533), JavaScript on at 1,280 px and off at 360 px: Ship it
// from the yard's own town, a claimed job's pickup papers and gate pass without the buyer's
// contact, the buyer's release naming the carrier, and a provider's own dashboard.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { createAffiliate, createPaidLotAtKent, tag } from "./arrange";
import { query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

/** The page has no sideways scroll (what a 360 px reader would have to do). */
async function fitsTheWidth(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(
    jsEnabled() ? { width: 1280, height: 900 } : { width: 360, height: 740 },
  );
});

/** A buyer signed in on `context`, with a paid purchase of a lot at a Kent yard and its code. */
async function paidLotAtKent(context: BrowserContext, who: string) {
  const t = tag();
  const email = `e2e-${who}-${test.info().project.name}-${t}@bidyard.test`;
  const buyerId = await signInAs(context, email, {
    first_name: "Blake",
    last_name: "Quillfeather",
  });
  const model = `CR-V ${t}`;
  const { lotId, purchaseId } = await createPaidLotAtKent(buyerId, model, "KENT4242");
  return { buyerId, email, lotId, purchaseId, model };
}

async function quote(page: Page, lotId: string, delivery: string, street = "") {
  await page.goto(`/service-orders/request?lot=${lotId}`);
  await ready(page);
  await page.getByLabel("Delivery ZIP, or city, ST (shipping)").fill(delivery);
  if (street) await page.getByLabel("Delivery street address (shipping, optional)").fill(street);
  await page.getByRole("button", { name: "See price" }).click();
  return page.getByTestId("transport-quote");
}

test("Ship it names the yard's town, measures from its ZIP, and says 1 road mile", async ({
  page,
  context,
}) => {
  test.slow();
  const { lotId } = await paidLotAtKent(context, "shipit");
  const near = await quote(page, lotId, "98004");
  await expect(near).toContainText(
    "Shipping from Kent, WA to Bellevue, WA 98004, about 1 road mile.",
  );
  const city = await quote(page, lotId, "98101");
  await expect(city).toContainText(
    "Shipping from Kent, WA to Seattle, WA 98101, about 10 road miles.",
  );
  await fitsTheWidth(page);
});

test("a claimed job gives its carrier the yard, the delivery address and a gate pass, never the buyer's contact", async ({
  page,
  context,
  browser,
}) => {
  test.slow();
  const bought = await paidLotAtKent(context, "papers");
  await quote(page, bought.lotId, "60614", "2045 N Lincoln Park W");
  await ready(page);
  await page.getByRole("button", { name: "Request service" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(bought.model);
  const orderId = new URL(page.url()).pathname.split("/").pop()!;
  // paid and claimed by a carrier (the claim itself is covered in affiliates.spec.ts)
  const company = `Kent Haulers ${tag()}`;
  const carrierEmail = `e2e-carrier-${test.info().project.name}-${tag()}@bidyard.test`;
  const carrierId = await createAffiliate(carrierEmail, "approved", company);
  await query(
    `UPDATE service_orders SET payment_status = 'paid', paid_at = now(), status = 'claimed', claimed_by = $2,
       claimed_at = now() WHERE id = $1`,
    [orderId, carrierId],
  );

  // the buyer's release now names the carrier
  await page.goto(`/purchases/${bought.purchaseId}/release`);
  await expect(page.getByTestId("carrier-line")).toHaveText(`Authorised carrier: ${company}`);

  const carrier = await browser.newContext({
    javaScriptEnabled: jsEnabled(),
    viewport: jsEnabled() ? { width: 1280, height: 900 } : { width: 360, height: 740 },
  });
  try {
    const carrierPage = await carrier.newPage();
    await signInAs(carrier, carrierEmail);
    await carrierPage.goto(`/service-orders/${orderId}`);
    await ready(carrierPage);
    const papers = carrierPage.getByRole("region", { name: "Pickup and delivery" });
    const yard = papers.getByTestId("pickup-yard");
    await expect(yard).toContainText("22606 68th Ave S");
    await expect(yard).toContainText("Kent, WA 98032");
    await expect(yard).toContainText("Hours: Mon–Fri 8:00 AM – 4:30 PM");
    await expect(yard.getByRole("link", { name: "(253) 555-0190" })).toHaveAttribute(
      "href",
      "tel:2535550190",
    );
    await expect(papers.getByTestId("delivery-address")).toContainText("2045 N Lincoln Park W");
    await expect(papers.getByTestId("delivery-address")).toContainText("Chicago, IL 60614");
    await expect(carrierPage.getByTestId("customer")).toContainText("Blake.");
    const body = (await carrierPage.locator("body").textContent()) ?? "";
    expect(body).not.toContain(bought.email);
    expect(body).not.toContain("Quillfeather");
    await fitsTheWidth(carrierPage);

    await papers.getByRole("link", { name: /Open the gate pass/ }).click();
    await expect(carrierPage.getByRole("heading", { name: "Gate pass", level: 1 })).toBeVisible();
    await expect(carrierPage.getByTestId("pickup-code")).toHaveText("KENT4242");
    await expect(carrierPage.getByTestId("authorised-carrier")).toHaveText(company);
    await expect(carrierPage.getByTestId("buyer-name")).toHaveText("Blake, a BidYard buyer");
    expect((await carrierPage.locator("body").textContent()) ?? "").not.toContain(bought.email);
    await fitsTheWidth(carrierPage);
  } finally {
    await carrier.close();
  }

  // another approved carrier: not found
  const other = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  try {
    const otherEmail = `e2e-other-${test.info().project.name}-${tag()}@bidyard.test`;
    await createAffiliate(otherEmail);
    await signInAs(other, otherEmail);
    const otherPage = await other.newPage();
    const answer = await otherPage.goto(`/service-orders/${orderId}/gate-pass`);
    expect(answer?.status()).toBe(404);
  } finally {
    await other.close();
  }
});

test("a provider's dashboard shows its own next steps, not a buyer's", async ({
  page,
  context,
}) => {
  const applicantEmail = `e2e-applicant-${test.info().project.name}-${tag()}@bidyard.test`;
  await createAffiliate(applicantEmail, "pending");
  await signInAs(context, applicantEmail);
  await page.goto("/");
  await expect(page.getByTestId("next-step-provider")).toContainText(
    "Provider application under review",
  );
  const main = page.locator("main");
  await expect(main).not.toContainText("KYC");
  await expect(main).not.toContainText("Deposit Required");
  await expect(page.getByTestId("buying-too")).toBeVisible();
  await fitsTheWidth(page);

  await context.clearCookies();
  const carrierEmail = `e2e-approved-${test.info().project.name}-${tag()}@bidyard.test`;
  const carrierId = await createAffiliate(carrierEmail);
  await query(
    `INSERT INTO service_orders (service_type, vehicle_label, vehicle_type, pickup_city,
       pickup_state, pickup_yard, delivery_city, delivery_state, distance_miles, payout, status,
       claimed_by, claimed_at)
     VALUES ('shipping', $1, 'sedan', 'Dallas', 'TX', 'Copart Dallas', 'Houston', 'TX', 252,
       '450.00', 'claimed', $2, now())`,
    [`2019 Toyota Camry ${tag()}`, carrierId],
  );
  await signInAs(context, carrierEmail);
  await page.goto("/");
  const jobs = page.getByTestId("next-step-jobs");
  await expect(jobs).toContainText("1 claimed job to deliver");
  await expect(jobs.getByRole("link", { name: "See your jobs" })).toHaveAttribute(
    "href",
    "/service-orders?tab=mine",
  );
  await expect(main).not.toContainText("Minimum $400");
  await expect(main).not.toContainText("Deposit Required");
  await fitsTheWidth(page);
});
