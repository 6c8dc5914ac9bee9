// Every page that shows a date, under two viewer zones (docs/decisions/2701): each moment is
// printed in the account's zone with the zone named, never as the UTC calendar day, and the same
// with JavaScript on and off. And one due date reads the same on the "You won" notice, the
// invoice and My auctions.
import { expect, test, type Page } from "@playwright/test";
import { createLot, tag } from "./arrange";
import { lotClosed, query, signInAs } from "./db";

// 05:00 UTC on Oct 2 is still Oct 1 in Los Angeles (10 PM PDT) and Honolulu (7 PM HST)
const AT = "2026-10-02T05:00:00Z";
const ENDS = "2026-12-15T05:00:00Z"; // Dec 14 there
const RENEWS = "2027-01-15T05:00:00Z"; // Jan 14 there
const ZONES = [
  { zone: "America/Los_Angeles", at: "10:00 PM PDT", ends: "9:00 PM PST" },
  { zone: "Pacific/Honolulu", at: "7:00 PM HST", ends: "7:00 PM HST" },
];
// what a UTC rendering of those moments would print
const UTC_TEXT = /Oct 2(?!\d)|Dec 15(?!\d)|Jan 15(?!\d)|\bUTC\b|GMT|05:00:00/;

async function mainText(page: Page, path: string) {
  const answer = await page.goto(path);
  expect(answer?.status(), path).toBe(200);
  return (await page.locator("main").innerText()).replace(/\s+/g, " ");
}

test("every dated page prints the viewer's zone, never the UTC day", async ({ page, context }) => {
  // fifteen pages, twice, on a shared 2-core machine
  test.setTimeout(240_000);
  const t = `${test.info().project.name}-${tag()}`;
  const email = `e2e-dates-${t}@bidyard.test`;
  const userId = await signInAs(context, email, {
    first_name: "Dana",
    verified: true,
    deposit: "5000.00",
    role: "admin",
    account_type: "affiliate",
  });
  await query("UPDATE users SET created_at = $2 WHERE id = $1", [userId, AT]);

  // an open lot that started at AT, with the user's bid at AT
  const open = await createLot({ model: `Dates${t}`.slice(0, 30) });
  await query("UPDATE lots SET starts_at = $2, ends_at = $3 WHERE id = $1", [open.id, AT, ENDS]);
  await query(
    `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, created_at)
     VALUES ($1, $2, 500, 500, false, $3)`,
    [open.id, userId, AT],
  );
  await query(
    "UPDATE lots SET current_bid = 500, high_max = 500, high_bidder_id = $2, bid_count = 1 WHERE id = $1",
    [open.id, userId],
  );

  // two sold lots closed at AT: one unpaid (due at AT), one paid at AT
  const soldModel = `Sold${t}`.slice(0, 30);
  const sold = async () => {
    const lot = await createLot({ model: soldModel });
    await query(
      `UPDATE lots SET status = 'sold', starts_at = $2::timestamptz - interval '1 day',
         ends_at = $2, closed_at = $2, current_bid = 1000, high_max = 1000, high_bidder_id = $3,
         bid_count = 1 WHERE id = $1`,
      [lot.id, AT, userId],
    );
    return lot;
  };
  const unpaidLot = await sold();
  const paidLot = await sold();
  const [unpaid] = await query<{ id: string }>(
    `INSERT INTO purchases (lot_id, user_id, amount, status, due_at, pickup_code, created_at)
     VALUES ($1, $2, 1000, 'pending', $3, 'DUEDATE1', $3) RETURNING id::text`,
    [unpaidLot.id, userId, AT],
  );
  const [paid] = await query<{ id: string }>(
    `INSERT INTO purchases (lot_id, user_id, amount, status, due_at, paid_at, pickup_code,
       created_at)
     VALUES ($1, $2, 1000, 'paid', $3, $3, 'PAIDDATE', $3) RETURNING id::text`,
    [paidLot.id, userId, AT],
  );

  // a transport order for the paid lot, claimed, started and completed by the same account (an
  // approved provider too), and its earnings line
  await query(
    `INSERT INTO affiliate_applications (user_id, company_name, service_types, business_phone,
       business_email, service_areas, status, reviewed_at)
     VALUES ($1, $2, ARRAY['shipping'], '214-555-0100', $3, ARRAY['Texas'], 'approved', $4)`,
    [userId, `Dates Carrier ${t}`, email, AT],
  );
  const [order] = await query<{ id: string }>(
    `INSERT INTO service_orders (service_type, lot_id, purchase_id, requested_by, vehicle_label,
       vehicle_type, pickup_city, pickup_state, delivery_city, delivery_state, distance_miles,
       payout, status, claimed_by, claimed_at, started_at, completed_at, created_at)
     VALUES ('shipping', $1, $2, $3, '2019 Toyota Sold', 'sedan', 'Dallas', 'TX', 'Houston', 'TX',
       240, '450.00', 'completed', $3, $4, $4, $4, $4) RETURNING id::text`,
    [paidLot.id, paid.id, userId, AT],
  );
  await query(
    `INSERT INTO provider_earnings (provider_id, service_order_id, gross, platform_fee, net,
       fee_basis_points, created_at)
     VALUES ($1, $2, 450, 45, 405, 1000, $3)`,
    [userId, order.id, AT],
  );

  // a notification, a ledger line, an ID document, a listing and a membership, all at AT
  await query(
    `INSERT INTO notifications (user_id, kind, title, body, created_at, updated_at)
     VALUES ($1, 'outbid', 'Dated notice', 'A notice from the past.', $2, $2)`,
    [userId, AT],
  );
  await query(
    `INSERT INTO deposit_entries (user_id, kind, amount, balance_after, memo, created_at)
     VALUES ($1, 'adjustment', 5000, 5000, 'Opening balance', $2)`,
    [userId, AT],
  );
  const key = `kyc/${userId}/${tag()}`;
  const [upload] = await query<{ id: string }>(
    `INSERT INTO uploads (user_id, purpose, object_key, content_type, size_bytes, status,
       expires_at)
     VALUES ($1, 'kyc_document', $2, 'image/png', 20, 'attached', now() + interval '1 day')
     RETURNING id`,
    [userId, key],
  );
  await query(
    `INSERT INTO kyc_documents (user_id, upload_id, document_type, object_key, content_type,
       size_bytes, created_at, updated_at)
     VALUES ($1, $2, 'passport', $3, 'image/png', 20, $4, $4)`,
    [userId, upload.id, key, AT],
  );
  const [listing] = await query<{ id: string }>(
    `INSERT INTO listings (user_id, title, description, make, model, year, mileage, price,
       condition, body_type, country, state, city, created_at)
     VALUES ($1, 'Dated Corolla', 'One owner.', 'Toyota', 'Corolla', 2018, 64000, '12000.00',
       'good', 'sedan', 'US', 'TX', 'Austin', $2)
     RETURNING id::text`,
    [userId, AT],
  );
  const [plan] = await query<{ id: string }>("SELECT id::text FROM membership_plans LIMIT 1");
  await query(
    `INSERT INTO memberships (user_id, plan_id, status, current_period_start, current_period_end)
     VALUES ($1, $2, 'active', $3, $4)`,
    [userId, plan.id, AT, RENEWS],
  );

  try {
    for (const { zone, at, ends } of ZONES) {
      await query("UPDATE users SET time_zone = $2 WHERE id = $1", [userId, zone]);
      const instant = `Oct 1, 2026, ${at}`;
      const deadline = `Thu, Oct 1, 2026, ${at}`;
      const pages: Array<[string, string[]]> = [
        [
          `/auctions/${open.id}`,
          [
            `Bidding opened ${instant}`,
            `Ends Dec 14, 2026, ${ends}`,
            `Oct 1, ${at.replace(" ", ":00 ")}`,
          ],
        ],
        ["/my-auctions", [`overdue since ${deadline}`]],
        [`/purchases/${unpaid.id}`, [`was due ${deadline}`]],
        [`/purchases/${paid.id}/release`, [`Paid ${instant}`, "Free until Wed, Oct 7, 2026"]],
        ["/notifications", [instant]],
        [`/service-orders/${order.id}`, [`Created ${instant}`, `Completed ${instant}`]],
        ["/service-orders/earnings", [instant]],
        ["/kyc-verification", [`Uploaded ${instant}`]],
        ["/deposit", [instant]],
        [`/vehicle/${listing.id}`, ["Posted Oct 1, 2026", "Member since October 2026"]],
        [`/auctions/results?make=Toyota&model=${encodeURIComponent(soldModel)}`, ["Oct 1, 2026"]],
        ["/membership", ["Paid until Jan 14, 2027"]],
        [`/admin/users/${userId}`, ["joined Oct 1, 2026"]],
        ["/admin/kyc", [`submitted ${instant}`]],
        ["/admin/purchases", [`due ${deadline}`]],
      ];
      for (const [path, expected] of pages) {
        const text = await mainText(page, path);
        // labels may be upper-cased by CSS, which innerText honours
        for (const piece of expected)
          expect(text.toLowerCase(), `${path} in ${zone}`).toContain(piece.toLowerCase());
        expect(text, `${path} in ${zone}`).not.toMatch(UTC_TEXT);
      }
      // the footer names the zone on every page
      await expect(page.getByTestId("zone-note")).toContainText(
        zone === "Pacific/Honolulu" ? "Hawaii (Honolulu)" : "Pacific (Los Angeles)",
      );
    }
  } finally {
    // no other test should find this ID document waiting in the review queue
    await query("DELETE FROM kyc_documents WHERE user_id = $1", [userId]);
  }
});

test("one due date: the same text on the You won notice, the invoice and My auctions", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const t = `${test.info().project.name}-${tag()}`;
  const userId = await signInAs(context, `e2e-due-${t}@bidyard.test`, {
    first_name: "Dee",
    verified: true,
    deposit: "5000.00",
  });
  for (const { zone } of ZONES) {
    await query("UPDATE users SET time_zone = $2 WHERE id = $1", [userId, zone]);
    const model = `Due${zone.length}${t}`.slice(0, 30);
    const lot = await createLot({ model });
    await query(
      `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, created_at)
       VALUES ($1, $2, 800, 800, false, now())`,
      [lot.id, userId],
    );
    // the hammer falls: the lot's close job closes it, invoices it and writes the notice
    await query(
      `UPDATE lots SET current_bid = 800, high_max = 800, high_bidder_id = $2, bid_count = 1,
         ends_at = now() - interval '1 second' WHERE id = $1`,
      [lot.id, userId],
    );
    await lotClosed(lot.id);
    await page.goto("/my-auctions");
    const [purchase] = await query<{ id: string }>(
      "SELECT id::text FROM purchases WHERE lot_id = $1",
      [lot.id],
    );
    const onMyAuctions = await page
      .getByRole("region", { name: /Won/ })
      .getByRole("listitem")
      .filter({ hasText: model })
      .getByTestId("due-at")
      .innerText();
    // the Dallas yard closes at 5 PM Central: 3 PM in Los Angeles, 1 PM in Honolulu
    expect(onMyAuctions).toMatch(
      zone === "Pacific/Honolulu"
        ? /^(Mon|Tue|Wed|Thu|Fri), \w{3} \d{1,2}, \d{4}, 1:00 PM HST$/
        : /^(Mon|Tue|Wed|Thu|Fri), \w{3} \d{1,2}, \d{4}, 3:00 PM PST$/,
    );

    await page.goto(`/purchases/${purchase.id}`);
    await expect(page.getByTestId("due-at")).toHaveText(onMyAuctions);

    await page.goto("/notifications");
    await expect(page.getByText(`due by ${onMyAuctions}.`).first()).toBeVisible();
  }
});
