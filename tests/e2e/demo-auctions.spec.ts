// Watching the hammer fall (docs/decisions/2755), JavaScript on and off: an admin ends a demo lot
// with "End now"; the winner's open page says so (live with JavaScript, on reload without); a
// real lot offers no such button.
import { expect, test } from "@playwright/test";
import { createLot, tag } from "./arrange";
import { query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

test.setTimeout(120_000);

test("an admin ends a demo lot now; the winner sees the hammer fall", async ({ browser }) => {
  const t = `${test.info().project.name}-${tag()}`;
  const lot = await createLot({ model: "Highlander" });
  await query("UPDATE lots SET demo = true WHERE id = $1", [lot.id]);
  const real = await createLot({ model: "4Runner" });

  const bidderContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await signInAs(bidderContext, `e2e-demo-bidder-${t}@bidyard.test`, {
    first_name: "Ben",
    verified: true,
    deposit: "5000.00",
  });
  const bidder = await bidderContext.newPage();
  await bidder.goto(`/auctions/${lot.id}`);
  await ready(bidder);
  await bidder.getByLabel("Bid amount (USD)").fill("650");
  await bidder.getByRole("button", { name: "Place Bid", exact: true }).click();
  await expect(bidder.getByText("You are the high bidder")).toBeVisible();
  // a bidder is not offered the button
  await expect(bidder.getByRole("button", { name: "End now" })).toHaveCount(0);

  const adminContext = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await signInAs(adminContext, `e2e-demo-admin-${t}@bidyard.test`, { role: "admin" });
  const admin = await adminContext.newPage();
  await admin.goto(`/auctions/${real.id}`);
  await expect(admin.getByRole("heading", { name: /4Runner/ })).toBeVisible();
  await expect(admin.getByRole("button", { name: "End now" })).toHaveCount(0);
  await admin.goto(`/auctions/${lot.id}`);
  await expect(admin.getByText("Demo lot (TEST MODE).")).toBeVisible();
  await ready(admin);
  await admin.getByRole("button", { name: "End now" }).click();
  await expect(admin.getByText("The hammer fell: sold to the high bidder")).toBeVisible();
  await expect(admin.getByRole("button", { name: "Auction Ended" })).toBeVisible();
  await expect(admin.getByRole("button", { name: "End now" })).toHaveCount(0);

  if (!jsEnabled()) await bidder.reload();
  await expect(bidder.getByTestId("leader-notice")).toContainText("You won this lot");
  await expect(bidder.getByRole("link", { name: "Invoice and next steps" })).toBeVisible();
  const [purchase] = await query<{ amount: string }>(
    "SELECT amount::text FROM purchases WHERE lot_id = $1",
    [lot.id],
  );
  expect(purchase.amount).toBe("650.00");
  await bidderContext.close();
  await adminContext.close();
});
