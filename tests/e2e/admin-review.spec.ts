// The admin's pages as a person uses them (issue 35): with JavaScript at 1,280 px and without it
// at 360 px. Sections and table actions in reach, the ID document beside its decision, decisions
// with a date and a name, one time zone for the early-access list and its CSV, and the buyer's
// ID upload form that gives way to the document under review. Records 3330 to 3333.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { createAffiliate, removeKycDocuments, tag } from "./arrange";
import { ensureUser, query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

// A real 1×1 PNG: it decodes, so the preview has pixels to show.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const SECTIONS = [
  "Users",
  "Early Access",
  "KYC Review",
  "Affiliates",
  "Settings",
  "Audit Log",
  "Purchases",
  "Fees and terms",
  "Exchange rates",
  "Message reports",
  "Contact messages",
  "Refunds that need a person",
];

function width() {
  return jsEnabled() ? 1280 : 360;
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: width(), height: jsEnabled() ? 800 : 740 });
});

async function signInAdmin(context: BrowserContext, first = "Ada", last = "Admin") {
  const email = `admin-review-${tag()}@bidyard.test`;
  const id = await signInAs(context, email, { role: "admin", first_name: first, last_name: last });
  return { email, id };
}

/** Nothing on the page reaches past the right edge of the screen. */
async function fitsTheScreen(page: Page, path: string) {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll, `${path} is ${scroll} px wide`).toBeLessThanOrEqual(width());
}

/** `locator` lies within the screen's width without scrolling anything sideways. */
async function inReach(page: Page, locator: ReturnType<Page["locator"]>) {
  await expect(locator).toBeVisible();
  const box = (await locator.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width());
}

test("every admin section is in view, and every admin table keeps its actions in reach", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await signInAdmin(context);
  const t = tag();
  const long = `a-rather-long-address-for-a-narrow-screen-${t}@bidyard.test`;
  await ensureUser(long, { first_name: "Wide", last_name: `Row${t}` });
  await query(
    `INSERT INTO prelaunch_signups (email, first_name, last_name, source, created_at, updated_at)
     VALUES ($1, 'Wide', 'Signup', 'website', now(), now())`,
    [long],
  );

  await page.goto(`/admin?tab=users&q=${encodeURIComponent(`Row${t}`)}`);
  await ready(page);
  // All ten sections show: they wrap onto more lines rather than scroll out of sight.
  const sections = page.getByRole("navigation", { name: "Admin sections" });
  for (const name of SECTIONS) {
    await inReach(page, sections.getByRole("link", { name, exact: true }));
  }
  expect(
    await sections.evaluate((nav) => nav.scrollWidth - nav.clientWidth),
    "the sections do not scroll sideways",
  ).toBeLessThanOrEqual(0);

  // The user's row: the whole e-mail and the Edit action are on screen.
  const users = page.getByRole("region", { name: "Users table" });
  await inReach(page, users.getByRole("link", { name: `Edit ${long}` }));
  await inReach(page, users.getByTitle(long));
  if (!jsEnabled()) {
    // The whole address shows, wrapped, not cut short.
    const cut = await users
      .getByTitle(long)
      .evaluate((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight + 1);
    expect(cut).toBe(false);
    // Stacked as a card: each value says which column it is.
    await expect(users.locator('td[data-label="E-mail"]').first()).toBeVisible();
    const label = await users
      .locator('td[data-label="E-mail"]')
      .first()
      .evaluate((cell) => getComputedStyle(cell, "::before").content);
    expect(label).toBe('"E-mail"');
  } else {
    await expect(users.getByRole("columnheader", { name: "E-mail" })).toBeVisible();
  }

  await page.screenshot({
    path: test.info().outputPath(`admin-users-${test.info().project.name}.png`),
    fullPage: true,
  });

  await page.goto("/admin?tab=early-access");
  await ready(page);
  const signups = page.getByRole("region", { name: "Early access signups table" });
  await inReach(page, signups.getByRole("link", { name: `Contact ${long}` }));

  for (const path of [
    "/admin?tab=users",
    "/admin?tab=early-access",
    "/admin?tab=kyc",
    "/admin?tab=affiliates",
    "/admin?tab=settings",
    "/admin?tab=audit",
    "/admin/kyc",
    "/admin/affiliates",
    "/admin/purchases",
    "/admin/fees",
    "/admin/exchange-rates",
    "/admin/message-reports",
    "/admin/service-orders/new",
  ]) {
    await page.goto(path);
    await ready(page);
    await fitsTheScreen(page, path);
    // Without scripts at 360 px no admin table is wider than its box: nothing hides to the right.
    if (!jsEnabled()) {
      for (const region of await page.getByRole("region", { name: /table/i }).all()) {
        const overflow = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(overflow, `a table on ${path} scrolls sideways`).toBeLessThanOrEqual(0);
      }
    }
  }
});

test("the KYC review shows the ID document beside Approve and Reject", async ({
  page,
  context,
}) => {
  const t = tag();
  const email = `kyc-preview-${t}@bidyard.test`;
  const userId = await signInAs(context, email, { first_name: "Pia", last_name: `Preview${t}` });
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  await page.goto("/kyc-verification");
  await ready(page);
  await page.getByText("Passport", { exact: true }).click();
  await page
    .getByLabel("ID document (1 file, up to 10 MB)")
    .setInputFiles({ name: "id.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Upload Document" }).click();
  await expect(page.getByRole("heading", { name: "Document sent" })).toBeVisible();

  // A PDF from someone else: not embedded, a labelled link instead.
  const pdfOwner = await ensureUser(`kyc-pdf-${t}@bidyard.test`, {
    first_name: "Pat",
    last_name: `Pdf${t}`,
  });
  const key = `kyc/${pdfOwner}/${t}`;
  const [upload] = await query<{ id: string }>(
    `INSERT INTO uploads (user_id, purpose, object_key, content_type, size_bytes, status, expires_at)
     VALUES ($1, 'kyc_document', $2, 'application/pdf', 20, 'attached', now() + interval '1 day')
     RETURNING id`,
    [pdfOwner, key],
  );
  await query(
    `INSERT INTO kyc_documents (user_id, upload_id, document_type, object_key, content_type,
       size_bytes)
     VALUES ($1, $2, 'state_id', $3, 'application/pdf', 20)`,
    [pdfOwner, upload.id, key],
  );

  try {
    await signInAdmin(context);
    for (const path of ["/admin/kyc", "/admin?tab=kyc"]) {
      await page.goto(path);
      await ready(page);
      const entry = page.getByRole("listitem", { name: `Pia Preview${t}, Passport` });
      const image = entry.getByRole("img", { name: `Passport of Pia Preview${t}` });
      await expect(image).toBeVisible();
      await image.scrollIntoViewIfNeeded();
      // It loaded (through /objects and its signed URL, within the page's CSP): it has pixels.
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBe(1);
      expect(await image.getAttribute("src")).toMatch(/^\/objects\//);
      const approve = entry.getByRole("button", { name: /^Approve/ });
      const reject = entry.getByRole("button", { name: /^Reject/ });
      await inReach(page, approve);
      await inReach(page, reject);
      const picture = (await image.boundingBox())!;
      const button = (await approve.boundingBox())!;
      if (jsEnabled()) {
        // Wide: side by side, the decision to the right of the document.
        expect(button.x).toBeGreaterThanOrEqual(picture.x + picture.width);
      } else {
        // Narrow: the document right above its decision.
        expect(button.y).toBeGreaterThanOrEqual(picture.y + picture.height);
        expect(button.y - (picture.y + picture.height)).toBeLessThan(200);
      }
      await expect(entry.getByRole("link", { name: /^View full size/ })).toBeVisible();
      await page.screenshot({
        path: test.info().outputPath(`kyc-review-${test.info().project.name}.png`),
        fullPage: true,
      });

      const pdf = page.getByRole("listitem", { name: `Pat Pdf${t}, State ID` });
      await expect(pdf.getByRole("img")).toHaveCount(0);
      await expect(pdf.getByText("PDF document", { exact: true })).toBeVisible();
      await expect(pdf.getByRole("link", { name: /^View PDF/ })).toHaveAttribute(
        "href",
        `/objects/${key}`,
      );
    }
  } finally {
    await removeKycDocuments(userId);
    await removeKycDocuments(pdfOwner);
  }
});

test("recent provider decisions say when and who; the early-access list and CSV share one zone; one Admin in the header", async ({
  page,
  context,
}) => {
  const admin = await signInAdmin(context, "Dana", "Decider");
  const company = `Decided Haulers ${tag()}`;
  const applicant = await createAffiliate(`decided-${tag()}@bidyard.test`, "approved", company);
  await query(
    `UPDATE affiliate_applications SET reviewed_by = $2, reviewed_at = '2026-11-20T18:05:00Z',
       updated_at = now() WHERE user_id = $1`,
    [applicant, admin.id],
  );

  await page.goto("/admin/affiliates");
  await ready(page);
  const decided = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: company }) });
  // 18:05 UTC is 12:05 PM in Chicago, the admin's zone.
  await expect(decided.getByTestId("decided")).toHaveText(
    "Approved on Nov 20, 2026, 12:05 PM CST by Dana Decider",
  );
  await fitsTheScreen(page, "/admin/affiliates");

  // The header names the admin role once; that one is the way to the admin pages.
  await expect(page.getByRole("banner").getByText("Admin", { exact: true })).toHaveCount(1);
  await expect(page.getByTestId("admin-badge")).toHaveAttribute("href", "/admin");

  const email = `zone-${tag()}@bidyard.test`;
  await query(
    `INSERT INTO prelaunch_signups (email, first_name, last_name, source, created_at, updated_at)
     VALUES ($1, 'Zoe', 'Zone', 'website', '2026-11-27T03:30:00Z', now())`,
    [email],
  );
  await page.goto("/admin?tab=early-access");
  await ready(page);
  await expect(
    page.getByText("Dates here and in the CSV are in your time zone, America/Chicago"),
  ).toBeVisible();
  const table = page.getByRole("region", { name: "Early access signups table" });
  const row = table.getByRole("row").filter({ hasText: email });
  // 03:30 UTC on the 27th is the evening of the 26th in Chicago: the page and the CSV agree.
  await expect(row.getByRole("cell").filter({ hasText: "2026" })).toHaveText(/Nov 26, 2026/);
  const csv = await (await page.request.get("/admin/early-access.csv")).text();
  const [header, ...lines] = csv.split("\r\n");
  expect(header).toContain("created_at (America/Chicago),created_at_utc");
  expect(lines.find((line) => line.includes(email))).toContain(
    "2026-11-26 21:30:00 CST,2026-11-27T03:30:00.000Z",
  );
  await query("DELETE FROM prelaunch_signups WHERE email = $1", [email]);
});

test("the ID upload form gives way to the document under review, and comes back after a rejection", async ({
  page,
  context,
}) => {
  const email = `kyc-form-${tag()}@bidyard.test`;
  const userId = await signInAs(context, email, { first_name: "Fay" });
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  try {
    await page.goto("/kyc-verification");
    await ready(page);
    // One label per document type, written as people write them.
    const types = page.getByRole("group", { name: "Document type" });
    for (const name of ["Driver's license", "Passport", "State ID"]) {
      await expect(types.getByText(name, { exact: true })).toBeVisible();
    }
    await expect(types.getByText(/State Id|state id/)).toHaveCount(0);
    await types.getByText("State ID", { exact: true }).click();
    await page
      .getByLabel("ID document (1 file, up to 10 MB)")
      .setInputFiles({ name: "id.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Upload Document" }).click();

    await expect(page.getByRole("heading", { name: "Document sent" })).toBeVisible();
    await expect(page.getByText(/Your State ID, sent .+, is being reviewed\./)).toBeVisible();
    await expect(page.getByRole("button", { name: "Upload Document" })).toHaveCount(0);
    await expect(page.getByRole("progressbar")).toHaveCount(0);
    await expect(page.getByText("100%")).toHaveCount(0);
    const history = page.getByRole("region", { name: "Document History" });
    await expect(history.getByRole("listitem").first()).toContainText("State ID");
    await expect(history.getByRole("link", { name: "View State ID" })).toBeVisible();
    await fitsTheScreen(page, "/kyc-verification");

    // Reloaded later: still the status, not the form.
    await page.reload();
    await ready(page);
    await expect(page.getByRole("heading", { name: "Document sent" })).toBeVisible();
    await expect(page.getByLabel("ID document (1 file, up to 10 MB)")).toHaveCount(0);

    await query(
      `UPDATE kyc_documents SET status = 'rejected', rejection_reason = 'Too dark to read.',
         reviewed_at = now() WHERE user_id = $1`,
      [userId],
    );
    await page.reload();
    await ready(page);
    await expect(page.getByRole("heading", { name: "Upload a New Document" })).toBeVisible();
    await expect(page.getByLabel("ID document (1 file, up to 10 MB)")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Document sent" })).toHaveCount(0);
  } finally {
    await removeKycDocuments(userId);
  }
});

test("a refund the provider refused for good is listed with its payer, reference and reason, and settled by hand", async ({
  page,
  context,
}) => {
  await signInAdmin(context);
  const t = tag();
  const payerEmail = `refund-payer-${t}@bidyard.test`;
  const payerId = await ensureUser(payerEmail, { first_name: "Rita", last_name: `Refund${t}` });
  const [order] = await query<{ id: string }>(
    `INSERT INTO payment_orders (id, user_id, purpose, provider, provider_order_id, idempotency_key,
                                 description, amount, status, captured_amount, capture_id,
                                 captured_at, refunded_amount, created_at, updated_at)
     VALUES (gen_random_uuid(), $1, 'service_order', 'test', $2, $2, 'Transport', 1519.00,
             'captured', 1619.00, $3, now(), 1619.00, now(), now())
     RETURNING id`,
    [payerId, `TEST-${t}`, `TESTCAP-${t}`],
  );
  await query(
    `INSERT INTO payment_refunds (id, payment_order_id, user_id, amount, status, failure_reason,
                                  created_at, updated_at)
     VALUES (gen_random_uuid(), $1, $2, 1619.00, 'failed', 'REFUND_NOT_ALLOWED: refused', now(), now())`,
    [order.id, payerId],
  );

  await page.goto("/admin/refunds");
  await ready(page);
  await expect(page.getByRole("heading", { name: "Refunds that need a person" })).toBeVisible();
  const card = page.getByTestId("refund-case").filter({ hasText: payerEmail });
  await expect(card.getByRole("heading")).toHaveText("$1,619.00 · Transport order");
  await expect(card).toContainText(`Rita Refund${t}`);
  await expect(card).toContainText(`Test payment capture TESTCAP-${t}`);
  await expect(card).toContainText("REFUND_NOT_ALLOWED: refused");
  await fitsTheScreen(page, "/admin/refunds");
  await inReach(page, card.getByRole("button", { name: "Mark settled" }));

  // a note of blanks passes the browser's check but not the server's: its message, nothing changed
  await card.getByLabel("How it was settled").fill("    ");
  await card.getByRole("button", { name: "Mark settled" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Say how it was settled." }),
  ).toBeVisible();

  const again = page.getByTestId("refund-case").filter({ hasText: payerEmail });
  await again.getByLabel("How it was settled").fill(`Paid back by bank transfer ${t}`);
  await again.getByRole("button", { name: "Mark settled" }).click();
  await expect(page.getByTestId("refund-case").filter({ hasText: payerEmail })).toHaveCount(0);
  const [row] = await query<{ resolution: string }>(
    "SELECT resolution FROM payment_refunds WHERE payment_order_id = $1",
    [order.id],
  );
  expect(row.resolution).toBe(`Paid back by bank transfer ${t}`);
});
