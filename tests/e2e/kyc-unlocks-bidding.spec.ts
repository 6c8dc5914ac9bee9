// Across features: an admin approving a buyer's identity document is what lets them bid.
import { expect, test } from "@playwright/test";
import { ensureUser, query, signInAs } from "./db";
import { ready } from "./helpers";

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

test("after an admin approves the ID, the dashboard says Verified and a bid goes through", async ({
  browser,
}) => {
  const id = unique();
  const email = `kyc-bid-${id}@bidyard.test`;
  const userId = await ensureUser(email, {
    first_name: "Kip",
    last_name: `Bidder${id}`,
    deposit: "1000.00",
  });
  const key = `kyc/unlock${id}`;
  const [upload] = await query<{ id: string }>(
    `insert into uploads (user_id, purpose, object_key, content_type, size_bytes, status, expires_at)
     values ($1, 'kyc_document', $2, 'application/pdf', 100, 'attached', now() + interval '1 hour') returning id`,
    [userId, key],
  );
  await query(
    `insert into kyc_documents (user_id, upload_id, document_type, object_key, content_type, size_bytes)
     values ($1, $2, 'license', $3, 'application/pdf', 100)`,
    [userId, upload.id, key],
  );
  const [lot] = await query<{ id: string }>(
    `insert into lots (auction_house, lot_number, vin, year, make, model, location_city,
       location_state, damage_type, primary_damage, title_type, estimated_value, image_urls,
       starts_at, ends_at)
     values ('iaai', $1, $2, 2020, 'Honda', 'Civic', 'Houston', 'TX', 'hail', 'HAIL',
       'salvage', 12000, array['/images/lots/sedan-red.svg'], now() - interval '1 hour',
       now() + interval '1 day')
     returning id`,
    [
      `K${id}`.slice(0, 20),
      `1HGCV1F3${id.toUpperCase().padEnd(9, "0")}`.slice(0, 17).replace(/[IOQ]/g, "0"),
    ],
  );

  const buyer = await browser.newContext();
  await signInAs(buyer, email);
  const buyerPage = await buyer.newPage();
  await buyerPage.goto("/");
  await expect(buyerPage.getByText("Under review", { exact: true }).first()).toBeVisible();

  const admin = await browser.newContext();
  await signInAs(admin, `kyc-bid-admin-${id}@bidyard.test`, { role: "admin" });
  const adminPage = await admin.newPage();
  await adminPage.goto("/admin?tab=kyc");
  await ready(adminPage);
  await adminPage
    .getByRole("listitem", { name: `Kip Bidder${id}, Driver's license` })
    .getByRole("button", { name: /Approve/ })
    .click();
  // The review posts and comes back to the same URL: wait for the document to leave the list.
  await expect(
    adminPage.getByRole("listitem", { name: `Kip Bidder${id}, Driver's license` }),
  ).toHaveCount(0);
  await expect
    .poll(
      async () =>
        (
          await query<{ verified: boolean }>("select verified from users where id = $1", [userId])
        )[0].verified,
    )
    .toBe(true);

  await buyerPage.goto("/");
  await expect(buyerPage.getByText("Verified", { exact: true }).first()).toBeVisible();
  await buyerPage.goto(`/auctions/${lot.id}`);
  await ready(buyerPage);
  const form = buyerPage.locator("#bid");
  await form.getByLabel("Bid amount (USD)").fill("300");
  await form.getByRole("button", { name: "Place Bid" }).click();
  await expect
    .poll(
      async () =>
        (
          await query<{ n: string }>(
            "select count(*) as n from bids where lot_id = $1 and user_id = $2",
            [lot.id, userId],
          )
        )[0].n,
    )
    .toBe("1");
  await buyer.close();
  await admin.close();
});
