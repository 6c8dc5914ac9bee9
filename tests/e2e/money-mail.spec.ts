// Money e-mails (docs/decisions/2754), JavaScript on and off: a win sends the invoice as an HTML
// attachment to the local mail catcher, paying sends the receipt and the release, the e-mail's
// one-click link stops that one kind, and the account page shows and sets every preference.
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { createLot, tag } from "./arrange";
import { lotClosed, query, signInAs } from "./db";
import { ready } from "./helpers";
import { e2eStateFile } from "./state";

type Caught = {
  id: number;
  to: string[];
  subject: string;
  text: string;
  headers: Record<string, string>;
  attachments: Array<{ filename: string; contentType: string; content: string | null }>;
};

function catcherUrl(): string {
  const port = Number(process.env.E2E_PORT ?? 3100);
  return JSON.parse(fs.readFileSync(e2eStateFile(port), "utf8")).mailCatcherUrl;
}

/** The mail to `email` whose subject matches, once the worker tick has sent it. */
async function mailTo(email: string, subject: RegExp) {
  let found: Caught | undefined;
  await expect(async () => {
    const mails = (await (await fetch(`${catcherUrl()}/messages.json`)).json()) as Caught[];
    found = mails.find((m) => m.to.includes(email) && subject.test(m.subject));
    expect(found).toBeTruthy();
  }).toPass({ timeout: 45_000, intervals: [1_000] });
  return found!;
}

test("won, paid and release e-mails reach the mail catcher; the won e-mail carries the invoice", async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  const email = `e2e-mail-${test.info().project.name}-${tag()}@bidyard.test`;
  const buyerId = await signInAs(context, email, {
    first_name: "Mae",
    verified: true,
    deposit: "5000.00",
  });
  const lot = await createLot({ model: "Tacoma" });
  await query(
    `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, created_at)
     VALUES ($1, $2, 800, 800, false, now())`,
    [lot.id, buyerId],
  );
  await query(
    `UPDATE lots SET current_bid = 800, high_max = 800, high_bidder_id = $2, bid_count = 1,
       ends_at = now() - interval '1 second' WHERE id = $1`,
    [lot.id, buyerId],
  );
  await lotClosed(lot.id);
  await page.goto(`/auctions/${lot.id}`); // closed by its job: invoice, notice and e-mail
  const [{ id }] = await query<{ id: string }>("SELECT id::text FROM purchases WHERE lot_id = $1", [
    lot.id,
  ]);

  const won = await mailTo(email, /^You won the 2019 Toyota Tacoma/);
  expect(won.text).toContain("Late fee: $50.00");
  expect(won.text).toContain("a default fee of $400.00");
  expect(won.headers["list-unsubscribe"]).toContain("/unsubscribe/");
  expect(won.attachments).toHaveLength(1);
  expect(won.attachments[0].filename).toBe(`bidyard-invoice-${id}.html`);
  expect(won.attachments[0].content).toContain("BidYard invoice");

  // the catcher shows it, attachment included, for a person to read
  await page.goto(`${catcherUrl()}/messages/${won.id}`);
  await expect(page.getByRole("link", { name: `bidyard-invoice-${id}.html` })).toBeVisible();

  // paying from the deposit: the receipt and the release
  await page.goto(`/purchases/${id}`);
  await ready(page);
  await page.getByRole("button", { name: /from my deposit/ }).click();
  await expect(page.getByRole("heading", { name: "Vehicle release" })).toBeVisible();
  const receipt = await mailTo(email, /^Receipt: 2019 Toyota Tacoma paid/);
  expect(receipt.text).toContain("paid once");
  const release = await mailTo(email, /^Release ready: pick up the 2019 Toyota Tacoma/);
  const [{ pickup_code }] = await query<{ pickup_code: string }>(
    "SELECT pickup_code FROM purchases WHERE id = $1",
    [id],
  );
  expect(release.text).toContain(`Pickup code: ${pickup_code}`);

  // the won e-mail's one-click link stops "You won" e-mails, and the account page says so
  const link = won.headers["list-unsubscribe"].replace(/^<|>$/g, "");
  await page.goto(new URL(link).pathname);
  await ready(page);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
  await page.goto("/account");
  await expect(page.getByLabel(/You won \(with the invoice\)/)).not.toBeChecked();
  await expect(page.getByLabel(/Payment receipts/)).toBeChecked();
});

test("the account page sets each money e-mail on its own", async ({ page, context }) => {
  const email = `e2e-prefs-${test.info().project.name}-${tag()}@bidyard.test`;
  await signInAs(context, email, { first_name: "Pia" });
  await page.goto("/");
  await ready(page);
  await page.getByTestId("user-label").first().click();
  await expect(page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible();
  for (const name of [
    /You won \(with the invoice\)/,
    /Payment due within 24 hours/,
    /Payment overdue/,
    /Payment receipts/,
    /Release ready for pickup/,
    /Transport claimed and delivered/,
    /^Outbid/,
  ])
    await expect(page.getByLabel(name)).toBeChecked();
  await page.getByLabel(/^Outbid/).uncheck();
  await page.getByLabel(/Payment due within 24 hours/).uncheck();
  await page.getByRole("button", { name: "Save e-mail preferences" }).click();
  await expect(page.getByText("E-mail preferences saved")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(/^Outbid/)).not.toBeChecked();
  await expect(page.getByLabel(/Payment due within 24 hours/)).not.toBeChecked();
  await expect(page.getByLabel(/Payment overdue/)).toBeChecked();
  const stopped = await query<{ topic: string }>(
    `SELECT s.topic FROM mail_unsubscribes s JOIN users u ON u.id = s.user_id
      WHERE u.email = $1 ORDER BY s.topic`,
    [email],
  );
  expect(stopped.map((s) => s.topic)).toEqual(["outbid", "payment_due"]);
});
