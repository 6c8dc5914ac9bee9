// The dashboard's facts: a first visit is greeted once, open invoices and the provider
// application are read for the next steps (docs/decisions/3306).
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { loader as indexLoader } from "~/routes/_index";
import { runOrderStep } from "~/services/affiliates/service-order-progress.server";
import { recordOpeningBalance } from "~/services/deposits/deposits.server";
import { createAdmin, createAffiliate, createTestOrder } from "../support/affiliates";
import { createTestUser, requestAs } from "../support/auth";
import { args } from "../support/routes";

type Page = {
  firstVisit: boolean;
  buyerSteps: boolean;
  hasBid: boolean;
  steps: Array<{ key: string; title: string; text: string; link: { to: string } }>;
  eligibility: { label: string };
};

describe("the dashboard's next steps", () => {
  it("greets the first visit once, then as a return", async () => {
    const user = await createTestUser({ firstName: "Nia" });
    const first = (await indexLoader(args(await requestAs(user, "/")))) as unknown as Page;
    expect(first.firstVisit).toBe(true);
    const again = (await indexLoader(args(await requestAs(user, "/")))) as unknown as Page;
    expect(again.firstVisit).toBe(false);
  });

  it("knows a buyer who has bid (a winner): no 'before your first bid' for them", async () => {
    const newcomer = await createTestUser();
    const fresh = (await indexLoader(args(await requestAs(newcomer, "/")))) as unknown as Page;
    expect(fresh.hasBid).toBe(false);
    const winner = await createTestUser();
    const [[lot]] = (await sequelize.query(
      `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
         location_state, starts_at, ends_at, status, current_bid, high_bidder_id, high_max,
         closed_at)
       VALUES ('copart', :lotNumber, '1FTEW1EP5JFA00002', 2018, 'Ford', 'F-150', 'Phoenix', 'AZ',
         now() - interval '2 days', now() - interval '1 hour', 'sold', 5000, :id, 5000, now())
       RETURNING id`,
      { replacements: { id: winner.id, lotNumber: `H${Date.now()}`.slice(0, 20) } },
    )) as unknown as [[{ id: string }]];
    await sequelize.query(
      `INSERT INTO bids (lot_id, user_id, amount, max_amount, created_at)
       VALUES (:lot, :id, 5000, 5000, now() - interval '2 hours')`,
      { replacements: { lot: lot.id, id: winner.id } },
    );
    const page = (await indexLoader(args(await requestAs(winner, "/")))) as unknown as Page;
    expect(page).toMatchObject({ firstVisit: true, hasBid: true });
  });

  it("names the deposit missing, the provider application and an open invoice", async () => {
    const user = await createTestUser({ accountType: "affiliate", deposit: "100.00" });
    await sequelize.query(
      `INSERT INTO affiliate_applications (user_id, company_name, service_types, business_phone,
         business_email, service_areas)
       VALUES (:id, 'Acme Haul', ARRAY['shipping'], '214-555-0100', 'acme@example.com',
         ARRAY['Texas'])`,
      { replacements: { id: user.id } },
    );
    const [[lot]] = (await sequelize.query(
      `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
         location_state, starts_at, ends_at, status, current_bid, high_bidder_id, high_max,
         closed_at)
       VALUES ('copart', :lotNumber, '1FTEW1EP5JFA00001', 2018, 'Ford', 'F-150', 'Phoenix', 'AZ',
         now() - interval '2 days', now() - interval '1 hour', 'sold', 5000, :id, 5000, now())
       RETURNING id`,
      { replacements: { id: user.id, lotNumber: `N${Date.now()}`.slice(0, 20) } },
    )) as unknown as [[{ id: string }]];
    const [[purchase]] = (await sequelize.query(
      `INSERT INTO purchases (lot_id, user_id, amount, status) VALUES (:lot, :id, 5000, 'pending')
       RETURNING id::text AS id`,
      { replacements: { lot: lot.id, id: user.id } },
    )) as unknown as [[{ id: string }]];

    const page = (await indexLoader(args(await requestAs(user, "/")))) as unknown as Page;
    expect(page.eligibility.label).toBe("Minimum Deposit Required: add $300.00");
    expect(page.steps.map((s) => s.key)).toEqual([
      "invoices",
      "provider",
      "verification",
      "deposit",
    ]);
    expect(page.steps[0].link.to).toBe(`/purchases/${purchase.id}`);
    expect(page.steps[1].title).toBe("Provider application under review");
    expect(page.steps[3].text).toContain("Add $300.00 to bid.");
  });

  // docs/decisions/3533: a provider who does not buy sees the provider's own next steps
  it("an applicant who does not buy sees the application, not verification or a deposit", async () => {
    const applicant = await createAffiliate("pending");
    const page = (await indexLoader(args(await requestAs(applicant, "/")))) as unknown as Page;
    expect(page.buyerSteps).toBe(false);
    expect(page.steps.map((s) => s.key)).toEqual(["provider"]);
    expect(page.steps[0].title).toBe("Provider application under review");
    expect(JSON.stringify(page.steps)).not.toMatch(/KYC|deposit/i);
  });

  it("an approved carrier sees its claimed jobs and earnings; buying steps once it buys", async () => {
    const carrier = await createAffiliate();
    const admin = await createAdmin();
    const claimed = await createTestOrder(admin);
    const delivered = await createTestOrder(admin, { payout: "500.00" });
    await runOrderStep(carrier.id, String(claimed.id), "claim");
    for (const step of ["claim", "start", "complete"] as const)
      await runOrderStep(carrier.id, String(delivered.id), step);
    const page = (await indexLoader(args(await requestAs(carrier, "/")))) as unknown as Page;
    expect(page.buyerSteps).toBe(false);
    expect(page.steps.map((s) => s.key)).toEqual(["provider", "jobs", "earnings"]);
    expect(page.steps[1].title).toBe("1 claimed job to deliver");
    expect(page.steps[1].link.to).toBe("/service-orders?tab=mine");
    // $500 less the platform fee
    expect(page.steps[2].title).toMatch(/^Earned \$4\d\d\.\d\d$/);
    expect(page.steps[2].text).toBe("From 1 delivered job, after the platform fee.");
    expect(JSON.stringify(page.steps)).not.toMatch(/Minimum \$400|KYC/);

    // a deposit makes the carrier a buyer too: the buyer's to-dos come back
    await recordOpeningBalance(carrier.id, "100.00");
    const buying = (await indexLoader(args(await requestAs(carrier, "/")))) as unknown as Page;
    expect(buying.buyerSteps).toBe(true);
    expect(buying.steps.map((s) => s.key)).toEqual([
      "provider",
      "jobs",
      "earnings",
      "verification",
      "deposit",
    ]);
  });
});
