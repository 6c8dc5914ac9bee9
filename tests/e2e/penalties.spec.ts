// Penalties before they are owed (docs/decisions/2751), JavaScript on and off: the lot's all-in
// box, the invoice and its pay step, and the "You won" notice name the late fee, the default's
// grace days and fee, and storage's free days and rate in dollars.
import { expect, test } from "@playwright/test";
import { createLot } from "./arrange";
import { lotClosed, query, signInAs } from "./db";

const unique = (name: string) =>
  `e2e-${name}-${test.info().project.name}-${Date.now()}@bidyard.test`;

const LATE = "$50.00, added once if the invoice is not paid by its due date.";
const DEFAULT =
  "Unpaid 2 days after the due date, the sale can be cancelled and a default fee of $400.00 taken from your deposit.";
const STORAGE =
  "Free for 3 business days after payment, until the yard closes on the last of them (weekends and holidays do not count), then $25.00 a day at the yard until pickup.";

test("the all-in box, the invoice and the You won notice state every penalty in dollars", async ({
  page,
  context,
}) => {
  test.slow();
  const buyerId = await signInAs(context, unique("penalties"), {
    first_name: "Pat",
    verified: true,
    deposit: "1000.00",
  });

  // before bidding: the lot's all-in box
  const open = await createLot({ model: "Avalon" });
  await page.goto(`/auctions/${open.id}`);
  const allIn = page.locator("#all-in");
  await expect(allIn.getByTestId("penalty-late_fee")).toHaveText(LATE);
  await expect(allIn.getByTestId("penalty-default")).toHaveText(DEFAULT);
  await expect(allIn.getByTestId("penalty-storage")).toHaveText(STORAGE);

  // after the hammer: the invoice and the pay step
  const lot = await createLot({ model: "Sienna" });
  await query(
    `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, created_at)
     VALUES ($1, $2, 700, 700, false, now())`,
    [lot.id, buyerId],
  );
  await query(
    `UPDATE lots SET current_bid = 700, high_max = 700, high_bidder_id = $2, bid_count = 1,
       ends_at = now() - interval '1 second' WHERE id = $1`,
    [lot.id, buyerId],
  );
  await lotClosed(lot.id);
  await page.goto(`/auctions/${lot.id}`); // the close job has written the invoice
  const [{ id: purchaseId }] = await query<{ id: string }>(
    "SELECT id::text FROM purchases WHERE lot_id = $1",
    [lot.id],
  );
  await page.goto(`/purchases/${purchaseId}`);
  const invoice = page.getByRole("region", { name: "Invoice" });
  await expect(invoice.getByTestId("penalty-late_fee")).toHaveText(LATE);
  await expect(invoice.getByTestId("penalty-default")).toHaveText(DEFAULT);
  await expect(invoice.getByTestId("penalty-storage")).toHaveText(STORAGE);
  await expect(page.getByTestId("pay-by")).toContainText("to avoid the $50.00 late fee");

  // the You won notice says it again
  await page.goto("/notifications");
  const notice = page.getByRole("listitem").filter({ hasText: "You won" });
  await expect(notice).toContainText("Late fee: $50.00");
  await expect(notice).toContainText("a default fee of $400.00");
  await expect(notice).toContainText("then $25.00 a day");
});
