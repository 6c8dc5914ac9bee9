import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import {
  createAffiliate,
  createPaidLotAtKent,
  createPendingKycDocument,
  createWonLot,
  tag,
} from "../e2e/arrange";
import { query, signInAs } from "../e2e/db";
import { ready } from "../e2e/helpers";

const out = (project: string) => path.join("walk-output", project);

async function visit(page: Page, project: string, name: string, url: string) {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const answer = await page.goto(url);
  expect(answer?.status() ?? 0, `${url} answered`).toBeLessThan(500);
  await ready(page);
  fs.mkdirSync(out(project), { recursive: true });
  await page.screenshot({ path: path.join(out(project), `${name}.png`), fullPage: true });
  expect(errors, `${url} threw`).toEqual([]);
}

/** The page as it is now (after a form's answer, which a fresh GET would not show). */
async function shot(page: Page, project: string, name: string) {
  fs.mkdirSync(out(project), { recursive: true });
  await page.screenshot({ path: path.join(out(project), `${name}.png`), fullPage: true });
}

test("a new buyer: landing, terms, auctions, a lot, dashboard, ID, deposit", async ({
  page,
  context,
}, info) => {
  const p = info.project.name;
  await visit(page, p, "buyer-01-landing", "/");
  await visit(page, p, "buyer-02-terms", "/terms");
  await visit(page, p, "buyer-03-privacy", "/privacy");
  await visit(page, p, "buyer-04-contact", "/contact");
  await signInAs(context, `walk-new-${tag()}@example.com`, { first_name: "Nora" });
  await visit(page, p, "buyer-05-dashboard-first-visit", "/");
  await visit(page, p, "buyer-06-auctions-sorted", "/auctions?sort=year_desc");
  const [lot] = await query<{ id: string }>(
    "SELECT id FROM lots WHERE status = 'live' OR ends_at > now() ORDER BY ends_at LIMIT 1",
  );
  await visit(page, p, "buyer-07-lot", `/auctions/${lot.id}`);
  await visit(page, p, "buyer-07b-lot-comparables", `/auctions/${lot.id}/comparables`);
  await visit(page, p, "buyer-07c-lot-vin", `/auctions/${lot.id}/vin`);
  await visit(page, p, "buyer-08-kyc", "/kyc-verification");
  await visit(page, p, "buyer-09-deposit", "/deposit");
});

test("a winning buyer: invoice with its choice, gate pass, transport price", async ({
  page,
  context,
}, info) => {
  const p = info.project.name;
  const buyer = await signInAs(context, `walk-winner-${tag()}@example.com`, {
    first_name: "Wes",
    last_name: "Winner",
    verified: true,
    deposit: "1000.00",
  });
  const unpaid = await createWonLot(buyer);
  const paid = await createWonLot(buyer, { paid: true });
  const [u] = await query<{ id: string }>("SELECT id FROM purchases WHERE lot_id = $1", [unpaid]);
  const [pd] = await query<{ id: string }>("SELECT id FROM purchases WHERE lot_id = $1", [paid]);
  await query(
    "UPDATE purchases SET pickup_code = coalesce(pickup_code, 'WALK4200') WHERE id = $1",
    [pd.id],
  );
  await visit(page, p, "winner-01-dashboard", "/");
  await visit(page, p, "winner-02-my-auctions", "/my-auctions");
  await visit(page, p, "winner-03-invoice", `/purchases/${u.id}`);
  await visit(page, p, "winner-04-gate-pass", `/purchases/${pd.id}/release`);
  await visit(page, p, "winner-05-transport-request", `/service-orders/request?lot=${paid}`);
  await visit(page, p, "winner-06-account", "/account");
});

test("a seller: post, listings, membership", async ({ page, context }, info) => {
  const p = info.project.name;
  await signInAs(context, `walk-seller-${tag()}@example.com`, { first_name: "Sam" });
  await visit(page, p, "seller-01-post-vehicle", "/post-vehicle");
  await visit(page, p, "seller-02-community", "/community-vehicles");
  await visit(page, p, "seller-03-membership", "/membership");
});

test("a provider: applying, then approved", async ({ page, context, browser }, info) => {
  const p = info.project.name;
  const email = `walk-carrier-${tag()}@example.com`;
  await createAffiliate(email, "pending");
  await signInAs(context, email);
  await visit(page, p, "provider-01-dashboard-pending", "/");
  const approved = `walk-hauler-${tag()}@example.com`;
  await createAffiliate(approved, "approved");
  const other = await browser.newContext({
    javaScriptEnabled: p === "desktop-js",
    viewport: page.viewportSize() ?? undefined,
  });
  await signInAs(other, approved);
  const page2 = await other.newPage();
  await visit(page2, p, "provider-02-board", "/service-orders");
  await visit(page2, p, "provider-03-earnings", "/service-orders/earnings");
  await other.close();
});

test("an admin: dashboard, users, KYC review, providers, contact inbox", async ({
  page,
  context,
}, info) => {
  const p = info.project.name;
  const applicant = await signInAs(context, `walk-applicant-${tag()}@example.com`);
  await createPendingKycDocument(applicant);
  await context.clearCookies();
  await signInAs(context, `walk-admin-${tag()}@example.com`, {
    first_name: "Ada",
    role: "admin",
  });
  await visit(page, p, "admin-01-dashboard", "/admin");
  await visit(page, p, "admin-02-users", "/admin?tab=users");
  await visit(page, p, "admin-03-kyc", "/admin?tab=kyc");
  await visit(page, p, "admin-04-providers", "/admin/affiliates");
  await visit(page, p, "admin-05-contact", "/admin/contact");
  await visit(page, p, "admin-06-purchases", "/admin/purchases");
  await visit(page, p, "admin-07-jobs", "/admin/jobs");
  await visit(page, p, "admin-08-refunds", "/admin/refunds");
});

test("a carrier's claimed job: pickup papers, gate pass, messages; the buyer's side", async ({
  page,
  context,
  browser,
}, info) => {
  const p = info.project.name;
  const t = tag();
  const buyerId = await signInAs(context, `walk-shipper-${t}@example.com`, {
    first_name: "Blake",
    last_name: "Buyer",
  });
  const { lotId, purchaseId } = await createPaidLotAtKent(buyerId, "CR-V", "WALK4242");
  await page.goto(`/service-orders/request?lot=${lotId}`);
  await ready(page);
  await page.getByLabel("Delivery ZIP, or city, ST (shipping)").fill("60614");
  await page
    .getByLabel("Delivery street address (shipping, optional)")
    .fill("2045 N Lincoln Park W");
  await page.getByRole("button", { name: "See price" }).click();
  await ready(page);
  await shot(page, p, "carrier-01-buyer-quote");
  await page.getByRole("button", { name: "Request service" }).click();
  await expect(page).toHaveURL(/\/service-orders\/\d+$/);
  const orderId = new URL(page.url()).pathname.split("/").pop()!;
  const carrierEmail = `walk-kent-${t}@example.com`;
  const carrierId = await createAffiliate(carrierEmail, "approved", `Kent Haulers ${t}`);
  await query(
    `UPDATE service_orders SET payment_status = 'paid', paid_at = now(), status = 'claimed',
       claimed_by = $2, claimed_at = now() WHERE id = $1`,
    [orderId, carrierId],
  );
  await visit(page, p, "carrier-02-buyer-order", `/service-orders/${orderId}`);
  await visit(page, p, "carrier-03-buyer-release", `/purchases/${purchaseId}/release`);
  const carrier = await browser.newContext({
    javaScriptEnabled: p === "desktop-js",
    viewport: page.viewportSize() ?? undefined,
  });
  await signInAs(carrier, carrierEmail);
  const carrierPage = await carrier.newPage();
  await visit(carrierPage, p, "carrier-04-job", `/service-orders/${orderId}`);
  await visit(carrierPage, p, "carrier-05-gate-pass", `/service-orders/${orderId}/gate-pass`);
  await visit(carrierPage, p, "carrier-06-dashboard", "/");
  await carrier.close();
});
