// Terms, privacy, contact, and a registration that drops nothing typed (docs/decisions/3301-3304).
// Each test runs with JavaScript (1,280 px) and without it (the "no-js" project, at 360 px).
import { expect, test, type Page } from "@playwright/test";
import { query, signInAs } from "./db";
import { createAffiliate, createWonLot } from "./arrange";
import {
  jsEnabled,
  ownClientAddress,
  ready,
  signInThroughIssuer,
  submitIssuerForm,
} from "./helpers";

const unique = (name: string) =>
  `e2e-trust-${name}-${test.info().project.name}-${Date.now()}@bidyard.test`;

test.beforeEach(async ({ page }) => {
  if (!jsEnabled()) await page.setViewportSize({ width: 360, height: 740 });
});

const footer = (page: Page) => page.getByRole("contentinfo");

/** The page has no sideways scroll (what a 360 px reader would have to do). */
async function fitsTheWidth(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test("the footer links reach the terms and the privacy policy, written for this marketplace", async ({
  page,
}) => {
  await page.goto("/");
  await ready(page);
  await footer(page).getByRole("link", { name: "Terms of Service" }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await expect(page.getByRole("heading", { name: "Terms of Service", level: 1 })).toBeVisible();
  const deposits = page.getByRole("region", { name: "2. Deposits and buying power" });
  await expect(deposits).toContainText("Bidding needs at least $400.00 on deposit");
  await expect(deposits).toContainText("ask for the part of your deposit that backs nothing");
  const paying = page.getByRole("region", { name: "5. Paying, penalties and default" });
  // the figures are the ones the charges use (the seeded payment terms)
  const [terms] = await query<{ late_fee_cents: number; default_fee_cents: number }>(
    "select late_fee_cents, default_fee_cents from purchase_terms limit 1",
  );
  const dollars = (cents: number) =>
    `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
  await expect(paying.getByTestId("penalty-late_fee")).toContainText(
    dollars(Number(terms.late_fee_cents)),
  );
  await expect(paying.getByTestId("penalty-default")).toContainText(
    dollars(Number(terms.default_fee_cents)),
  );
  await expect(page.getByRole("region", { name: "4. Fees" })).toContainText("buyer fee");
  await fitsTheWidth(page);

  await footer(page).getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  const id = page.getByRole("region", { name: "Your ID document" });
  for (const text of [
    "a link that works for five minutes",
    "the file is deleted within 30 days",
    "Sellers, other buyers and service providers never see it",
  ]) {
    await expect(id).toContainText(text);
  }
  await id.getByRole("link", { name: "Contact" }).click();
  await expect(page).toHaveURL(/\/contact\?topic=privacy$/);
  await expect(page.getByLabel("What is it about?")).toHaveValue("privacy");
  await fitsTheWidth(page);
});

test("Contact reaches the admins: a message lands in their inbox and their mail", async ({
  page,
  browser,
}) => {
  await ownClientAddress(page);
  const adminEmail = unique("admin");
  const adminId = (
    await query<{ id: string }>(
      "insert into users (email, role) values ($1, 'admin') returning id",
      [adminEmail],
    )
  )[0].id;
  const text = `My refund has not arrived ${test.info().project.name} ${Date.now()}`;
  await page.goto("/");
  await ready(page);
  await footer(page).getByRole("link", { name: "Contact Us" }).click();
  await expect(page.getByRole("heading", { name: "Contact us" })).toBeVisible();

  // empty: refused, with a message under each field, nothing sent
  if (jsEnabled()) {
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByText("Enter your name.")).toBeVisible();
    await expect(page.getByText("Write your message.")).toBeVisible();
  }
  await page.getByLabel("Your name").fill("Dana Buyer");
  await page.getByLabel("Your e-mail (we answer here)").fill("dana@example.com");
  await page.getByLabel("What is it about?").selectOption("deposit");
  await page.getByLabel("Your message").fill(text);
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(
    page.getByRole("heading", { name: "Thank you: your message reached our team" }),
  ).toBeVisible();
  await expect(page.getByText("within one business day")).toBeVisible();
  await fitsTheWidth(page);

  const mails = await query<{ subject: string }>(
    "select subject from mail_outbox where user_id = $1 and text_body like $2",
    [adminId, `%${text}%`],
  );
  expect(mails.map((m) => m.subject)).toEqual([
    "Contact: Deposits, refunds and buying power from Dana Buyer",
  ]);

  // the admin finds it in the inbox, linked from the admin pages, and marks it answered
  const context = await browser.newContext({
    javaScriptEnabled: jsEnabled(),
    viewport: jsEnabled() ? { width: 1280, height: 800 } : { width: 360, height: 740 },
  });
  await signInAs(context, adminEmail);
  const admin = await context.newPage();
  await admin.goto("/admin");
  await admin.getByRole("link", { name: "Contact messages" }).click();
  const item = admin.getByTestId("contact-message").filter({ hasText: text });
  await expect(item).toContainText("dana@example.com");
  await expect(item.getByRole("heading")).toHaveText("Deposits, refunds and buying power");
  await ready(admin);
  await item.getByRole("button", { name: "Mark answered" }).click();
  await expect(admin.getByTestId("contact-message").filter({ hasText: text })).toHaveCount(0);
  await context.close();
});

test("registration: terms linked, no password asked, and the phone kept on the account", async ({
  page,
}) => {
  test.slow();
  await ownClientAddress(page);
  const email = unique("register");
  await page.goto("/?register=1");
  await ready(page);
  const dialog = page.locator("#register");
  await expect(dialog.getByLabel("Password")).toHaveCount(0);
  await expect(dialog.getByTestId("password-note")).toContainText(
    "the secure sign-in page that opens next asks for it",
  );
  const terms = dialog.getByRole("link", { name: "Terms of Service" });
  await expect(terms).toHaveAttribute("href", "/terms");
  await expect(terms).toHaveAttribute("target", "_blank");
  await expect(dialog.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
    "href",
    "/privacy",
  );

  await page.getByLabel("First name").fill("Tara");
  await page.getByLabel("Last name").fill("Trust");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("+1 713 555 0142");
  await page.getByLabel("I agree to the Terms of Service and Privacy Policy").check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL((url) => url.hostname === "127.0.0.1");
  expect(page.url()).not.toContain("555");
  await submitIssuerForm(page, email);
  await page.waitForURL((url) => url.hostname === "localhost" && url.pathname === "/");
  await page.goto("/account");
  await expect(page.getByTestId("account-phone")).toContainText("Phone: +1 713 555 0142");
  await fitsTheWidth(page);
});

test("deposit and membership receipts each have their own switch on the account page", async ({
  page,
  context,
}) => {
  const userId = await signInAs(context, unique("receipts"), { first_name: "Rae" });
  await page.goto("/account");
  await ready(page);
  await expect(page.getByLabel(/^Deposit receipts/)).toBeChecked();
  await expect(page.getByLabel(/^Membership receipts/)).toBeChecked();
  await page.getByLabel(/^Deposit receipts/).uncheck();
  await page.getByRole("button", { name: "Save e-mail preferences" }).click();
  await expect(page.getByText("E-mail preferences saved")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(/^Deposit receipts/)).not.toBeChecked();
  await expect(page.getByLabel(/^Membership receipts/)).toBeChecked();
  await expect(page.getByLabel(/^Payment receipts/)).toBeChecked();
  const stopped = await query<{ topic: string }>(
    "select topic from mail_unsubscribes where user_id = $1",
    [userId],
  );
  expect(stopped.map((row) => row.topic)).toEqual(["deposit_receipt"]);
  await fitsTheWidth(page);
});

test.describe("the dashboard says what to do next", () => {
  const heading = (page: Page) => page.getByRole("heading", { level: 1 });

  test("a new buyer: greeted as a first visit, told to verify and how much to deposit", async ({
    page,
    context,
  }) => {
    await signInAs(context, unique("new-buyer"), { first_name: "Nia", deposit: "150.00" });
    await page.goto("/");
    await expect(heading(page)).toHaveText("Welcome to BidYard, Nia!");
    await expect(page.getByTestId("next-step-verification")).toContainText(
      "Please verify your identity before bidding.",
    );
    const deposit = page.getByTestId("next-step-deposit");
    await expect(deposit).toContainText("Add $250.00 to bid.");
    await expect(deposit.getByRole("link", { name: "Make a deposit" })).toHaveAttribute(
      "href",
      "/deposit",
    );
    await expect(page.getByTestId("bidding-status")).toHaveText(
      "Minimum Deposit Required: add $250.00",
    );
    await expect(page.getByTestId("next-step-provider")).toHaveCount(0);
    await fitsTheWidth(page);
    // the deposit page says the same amount
    await page.goto("/deposit");
    await expect(page.getByText("Minimum Deposit Required: add $250.00").first()).toBeVisible();
    // the next visit is a return
    await page.goto("/");
    await expect(heading(page)).toHaveText("Welcome back, Nia!");
  });

  test("a provider sees their application's status; a buyer with a won lot sees the invoice", async ({
    page,
    context,
  }) => {
    const email = unique("provider");
    const userId = await createAffiliate(email, "pending");
    await signInAs(context, email);
    await page.goto("/");
    const provider = page.getByTestId("next-step-provider");
    await expect(provider).toContainText("Provider application under review");
    await expect(provider.getByRole("link", { name: "See your application" })).toHaveAttribute(
      "href",
      "/affiliate-registration",
    );

    await createWonLot(userId);
    const [purchase] = await query<{ id: string }>(
      "select id::text as id from purchases where user_id = $1",
      [userId],
    );
    await page.goto("/");
    const invoices = page.getByTestId("next-step-invoices");
    await expect(invoices).toContainText("Pay your invoice");
    await expect(invoices.getByRole("link", { name: "Open the invoice" })).toHaveAttribute(
      "href",
      `/purchases/${purchase.id}`,
    );
    // the first step is the most pressing: money owed
    await expect(page.locator('[data-testid^="next-step-"]').first()).toHaveAttribute(
      "data-testid",
      "next-step-invoices",
    );
  });

  test("at 360 px without JavaScript the sign-in toast covers no card", async ({ page }) => {
    // with scripts the toast floats at the bottom, with × and swipe to close (record 1401)
    test.skip(jsEnabled(), "the server-rendered toast without scripts");
    await page.setViewportSize({ width: 360, height: 740 });
    await signInThroughIssuer(page, unique("toast"), "/");
    const toast = page.getByTestId("toast");
    await expect(toast).toBeVisible();
    const box = (await toast.boundingBox())!;
    for (const name of ["Verification Status", "Account Balance", "What to do next"]) {
      const region = page.getByRole("region", { name });
      const card = (await region.boundingBox())!;
      const overlaps =
        box.y < card.y + card.height &&
        card.y < box.y + box.height &&
        box.x < card.x + card.width &&
        card.x < box.x + box.width;
      expect(overlaps, `${name} is covered`).toBe(false);
    }
  });
});
