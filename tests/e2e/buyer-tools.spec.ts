// Buyer tools end to end, with JavaScript on and off, at phone width: a saved search alerts in
// the app and by e-mail (read back from the local mail catcher); a buyer messages a seller and
// the seller replies.
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { ensureUser, query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";
import { e2eStateFile } from "./state";

test.use({ viewport: { width: 360, height: 740 } });

function unique(prefix: string) {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

function catcherUrl(): string {
  const port = Number(process.env.E2E_PORT ?? 3100);
  return JSON.parse(fs.readFileSync(e2eStateFile(port), "utf8")).mailCatcherUrl;
}

async function insertListing(userId: string, title: string, make: string, model: string) {
  const rows = await query<{ id: string }>(
    `insert into listings (user_id, title, description, make, model, year, price, currency,
                           condition, body_type, country, state, city)
     values ($1, $2, '', $3, $4, 2017, '9500.00', 'USD', 'good', 'sedan', 'US', 'TX', 'Austin')
     returning id`,
    [userId, title, make, model],
  );
  return rows[0].id;
}

async function send(page: Page, name: RegExp | string) {
  await ready(page);
  await page.getByRole("button", { name }).click();
}

test.describe("buyer tools", () => {
  test("a saved search alerts in the app and by e-mail when a new listing matches", async ({
    page,
    context,
  }) => {
    test.slow();
    const buyerEmail = `${unique("saver")}@bidyard.test`;
    await signInAs(context, buyerEmail, { first_name: "Sam" });
    const sellerId = await ensureUser(`${unique("lister")}@bidyard.test`, { first_name: "Lee" });
    const model = unique("Model");

    await page.goto(`/community-vehicles?make=Subaru&model=${model}`);
    await send(page, "Save and alert me");
    await expect(page.getByText("Search saved").first()).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`model=${model}`));

    await page.goto("/saved-searches");
    await expect(page.getByRole("heading", { name: "Saved searches" })).toBeVisible();
    await expect(page.getByRole("link", { name: new RegExp(model, "i") })).toBeVisible();

    const title = `Subaru ${model} for sale`;
    const listingId = await insertListing(sellerId, title, "Subaru", model);

    // The worker tick runs every few seconds: the alert appears in the notifications.
    await expect(async () => {
      await page.goto("/notifications");
      await expect(page.getByText(`New match: ${title}`)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 75_000, intervals: [2_000] });

    // And the e-mail reached the mail catcher, with its one-click unsubscribe.
    const catcher = catcherUrl();
    let unsubscribeLink = "";
    await expect(async () => {
      const mails = (await (await fetch(`${catcher}/messages.json`)).json()) as {
        to: string[];
        subject: string;
        text: string;
        html: string | null;
        headers: Record<string, string>;
      }[];
      const mail = mails.find((m) => m.to.includes(buyerEmail));
      expect(mail?.subject).toContain(title);
      expect(mail?.text).toContain(`/vehicle/${listingId}`);
      // The HTML links the listing itself, not just its address as text.
      expect(mail?.html).toMatch(new RegExp(`<a href="[^"]*/vehicle/${listingId}">${title}</a>`));
      expect(mail?.headers["list-unsubscribe"]).toContain("/unsubscribe/");
      unsubscribeLink = /\/unsubscribe\/[^>\s]+/.exec(mail!.headers["list-unsubscribe"])![0];
    }).toPass({ timeout: 30_000, intervals: [1_000] });

    // The catcher's own page lists it for a person to read.
    await page.goto(catcher);
    await expect(page.getByRole("link", { name: new RegExp(model) })).toBeVisible();

    // Unsubscribing shows on the saved search, and the used link says it is done.
    await page.goto(unsubscribeLink);
    await send(page, "Unsubscribe");
    await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
    await page.goto(unsubscribeLink);
    await expect(page.getByRole("heading", { name: "You are already unsubscribed" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
    await page.goto("/saved-searches");
    const saved = page.getByRole("listitem").filter({ hasText: model });
    await expect(saved.getByText(/e-mail off/)).toBeVisible();
    await expect(saved.getByText(/e-mail on/)).toHaveCount(0);
    await expect(
      page.getByText(/You stopped alert e-mails with an unsubscribe link/),
    ).toBeVisible();
    await send(page, "E-mail me too");
    await expect(saved.getByText(/e-mail on/)).toBeVisible();
  });

  test("a buyer messages a seller and the seller replies, without seeing e-mail addresses", async ({
    browser,
  }) => {
    test.slow();
    const sellerEmail = `${unique("seller")}@bidyard.test`;
    const buyerEmail = `${unique("buyer")}@bidyard.test`;
    const sellerContext = await browser.newContext({
      viewport: { width: 360, height: 740 },
      javaScriptEnabled: jsEnabled(),
    });
    const buyerContext = await browser.newContext({
      viewport: { width: 360, height: 740 },
      javaScriptEnabled: jsEnabled(),
    });
    const sellerId = await signInAs(sellerContext, sellerEmail, { first_name: "Sally" });
    await signInAs(buyerContext, buyerEmail, { first_name: "Bob" });
    const title = `${unique("Civic")} EX`;
    const listingId = await insertListing(sellerId, title, "Honda", "Civic");

    const buyer = await buyerContext.newPage();
    await buyer.goto(`/vehicle/${listingId}`);
    await ready(buyer);
    await buyer.getByRole("link", { name: "Message the seller" }).click();
    await expect(buyer.getByRole("heading", { name: "Message the seller" })).toBeVisible();
    await buyer.getByLabel("Your message").fill("Hello, is it still available?");
    await send(buyer, "Send message");
    await expect(buyer.getByText("Hello, is it still available?")).toBeVisible();
    await expect(buyer.getByRole("heading", { name: title })).toBeVisible();

    const seller = await sellerContext.newPage();
    await seller.goto("/messages");
    await ready(seller);
    await seller.getByRole("link", { name: new RegExp(title) }).click();
    await expect(seller.getByText("Hello, is it still available?")).toBeVisible();
    await expect(seller.getByText("Buyer: Bob")).toBeVisible();
    await expect(seller.getByText(buyerEmail)).toHaveCount(0);
    await seller.getByLabel("Your reply").fill("Yes! Come by on Saturday.");
    await send(seller, "Send reply");
    await expect(seller.getByText("Yes! Come by on Saturday.")).toBeVisible();

    await buyer.reload();
    await expect(buyer.getByText("Yes! Come by on Saturday.")).toBeVisible();
    await expect(buyer.getByText(sellerEmail)).toHaveCount(0);

    await buyerContext.close();
    await sellerContext.close();
  });
});
