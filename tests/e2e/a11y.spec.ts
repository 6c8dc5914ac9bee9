// axe-core on every screen, as every kind of person, with the dialogs open and at 360 px:
// no serious or critical violation. Each screen names its route file, and the last test fails
// when a page route in app/routes is in none of the lists below.
import { routeModuleFiles } from "../support/route-files";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import {
  createAffiliate,
  createListing,
  createLot,
  createNotification,
  createOrder,
  createPendingKycDocument,
  createWonLot,
  removeKycDocuments,
  tag,
} from "./arrange";
import { ensureUser, query, signInAs } from "./db";
import { ready } from "./helpers";

// Many screens per test, and axe takes a second or two on each.
test.describe.configure({ timeout: 180_000 });

/**
 * Runs axe on what the page shows now and records serious/critical findings as a soft failure,
 * so one run lists every broken screen. It also proves axe really ran (rules passed, contrast
 * among them), so a blank page cannot pass for an accessible one.
 */
async function audit(page: Page, label: string) {
  // Legacy mode runs axe inside the page. The default opens a second blank page per audit to
  // merge results across frames, which doubled each audit's time; these screens embed no frames.
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  expect(results.passes.length, `${label}: axe checked nothing`).toBeGreaterThan(10);
  expect(results.passes.map((rule) => rule.id)).toContain("color-contrast");
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 4)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
  expect.soft(serious, label).toEqual([]);
}

type Screen = {
  /** The route file under app/routes that renders it. */
  route: string;
  path: string;
  /** What the server answers (error screens are screens too). */
  status?: number;
  /** A heading that proves the intended screen rendered (not a redirect or an error page). */
  shows: string | RegExp;
  /** Or a text, where the proof is not a heading. */
  text?: string;
};

async function visitAll(page: Page, persona: string, screens: Screen[]) {
  for (const screen of screens) {
    const response = await page.goto(screen.path);
    expect(response?.status(), `${persona} ${screen.path}`).toBe(screen.status ?? 200);
    await ready(page);
    const proof = screen.text
      ? page.getByText(screen.text)
      : page.getByRole("heading", { name: screen.shows });
    await expect(proof.first()).toBeVisible();
    await audit(page, `${persona} ${screen.path}`);
  }
}

/** Rows the personas look at, arranged once per run. */
type World = {
  lot: { id: string; vin: string };
  soonLot: { id: string; vin: string };
  endingLot: { id: string; vin: string };
  endedLot: { id: string; vin: string };
  listingId: string;
  ownListingId: string;
  ownListingTitle: string;
  openOrderId: string;
  openOrderLabel: string;
  claimedOrderId: string;
  requestedOrderId: string;
  purchaseId: string;
  paidPurchaseId: string;
  threadId: string;
  unverified: string;
  unverifiedId: string;
  bidder: string;
  bidderId: string;
  affiliate: string;
  pendingAffiliate: string;
  admin: string;
};

const NOT_FOUND = { route: "$.tsx", path: "/no-such-page", status: 404, shows: /not found/i };

/** Every screen by address, per persona. */
const SCREENS = {
  visitor: (w: World): Screen[] => [
    { route: "_index.tsx", path: "/", shows: /./ },
    { route: "community-vehicles.tsx", path: "/community-vehicles", shows: /vehicles found$/ },
    {
      route: "community-vehicles.tsx",
      path: "/community-vehicles?make=Toyota&condition=good&sort=price_asc",
      shows: /vehicles found$/,
    },
    { route: "vehicle.$id.tsx", path: `/vehicle/${w.listingId}`, shows: /./ },
    { route: "terms.tsx", path: "/terms", shows: "Terms of Service" },
    { route: "privacy.tsx", path: "/privacy", shows: "Privacy Policy" },
    { route: "contact.tsx", path: "/contact", shows: "Contact us" },
    { route: "register.tsx", path: "/register", shows: "Create your account" },
    {
      route: "unsubscribe.$token.tsx",
      path: "/unsubscribe/not-a-signed-link",
      status: 400,
      shows: /./,
    },
    NOT_FOUND,
  ],
  unverified: (w: World): Screen[] => [
    { route: "_index.tsx", path: "/", shows: /./ },
    { route: "auctions._index.tsx", path: "/auctions", shows: "Live Auctions" },
    { route: "auctions.$lotId.tsx", path: `/auctions/${w.lot.id}`, shows: /Camry/ },
    {
      route: "auctions.$lotId_.comparables.tsx",
      path: `/auctions/${w.lot.id}/comparables`,
      shows: "What similar lots sold for",
    },
    { route: "auctions.$lotId_.vin.tsx", path: `/auctions/${w.lot.id}/vin`, shows: /Camry/ },
    { route: "kyc-verification.tsx", path: "/kyc-verification", shows: "Identity Verification" },
    { route: "deposit.tsx", path: "/deposit", shows: "Secure Your Bidding Power" },
    { route: "membership.tsx", path: "/membership", shows: /./ },
    { route: "post-vehicle.tsx", path: "/post-vehicle", shows: /./ },
    { route: "notifications._index.tsx", path: "/notifications", shows: "Notifications" },
    {
      route: "affiliate-registration.tsx",
      path: "/affiliate-registration",
      shows: "Become a Service Provider",
    },
    { route: "service-orders._index.tsx", path: "/service-orders", shows: /./ },
    {
      route: "service-orders.$id.tsx",
      path: `/service-orders/${w.openOrderId}`,
      shows: w.openOrderLabel,
    },
    { route: "service-orders.request.tsx", path: "/service-orders/request", shows: /./ },
    { route: "community-vehicles.tsx", path: "/community-vehicles", shows: /vehicles found$/ },
    NOT_FOUND,
  ],
  bidder: (w: World): Screen[] => [
    { route: "_index.tsx", path: "/", shows: /./ },
    { route: "auctions._index.tsx", path: "/auctions", shows: "Live Auctions" },
    {
      route: "auctions._index.tsx",
      path: "/auctions?auctionHouse=copart&make=Toyota&damageType=collision&location=TX&yearMin=2015&yearMax=2022&titleType=salvage&runsDrives=no",
      shows: "Live Auctions",
    },
    {
      route: "auctions._index.tsx",
      path: "/auctions?search=no-such-vehicle-anywhere",
      shows: "No auctions found",
    },
    {
      route: "auctions._index.tsx",
      path: "/auctions?yearMin=abc&search=no-such-vehicle-anywhere",
      shows: "Live Auctions",
    },
    { route: "auctions.$lotId.tsx", path: `/auctions/${w.soonLot.id}`, shows: /Corolla/ },
    { route: "auctions.$lotId.tsx", path: `/auctions/${w.endingLot.id}`, shows: /Prius/ },
    { route: "auctions.$lotId.tsx", path: `/auctions/${w.endedLot.id}`, shows: /Yaris/ },
    {
      route: "auctions._index.tsx",
      path: `/auctions?search=${encodeURIComponent(w.endingLot.vin)}`,
      shows: "Live Auctions",
    },
    { route: "kyc-verification.tsx", path: "/kyc-verification", shows: /./ },
    { route: "deposit.tsx", path: "/deposit", shows: "Secure Your Bidding Power" },
    { route: "membership.tsx", path: "/membership", shows: /./ },
    { route: "notifications._index.tsx", path: "/notifications", shows: "Notifications" },
    { route: "vehicle.$id.tsx", path: `/vehicle/${w.listingId}`, shows: /./ },
    { route: "vehicle.$id.tsx", path: `/vehicle/${w.ownListingId}`, shows: w.ownListingTitle },
    { route: "vehicle.$id.tsx", path: `/vehicle/${w.ownListingId}?edit=1`, shows: /./ },
    { route: "service-orders.request.tsx", path: "/service-orders/request", shows: /./ },
    {
      route: "service-orders.$id.tsx",
      path: `/service-orders/${w.requestedOrderId}`,
      shows: /Ford F-150/,
    },
    {
      route: "service-orders.$id.tsx",
      path: "/service-orders/999999999",
      status: 404,
      shows: /./,
    },
    { route: "my-auctions.tsx", path: "/my-auctions", shows: /./ },
    { route: "purchases.$id.tsx", path: `/purchases/${w.purchaseId}`, shows: /./ },
    {
      route: "purchases.$id_.release.tsx",
      path: `/purchases/${w.paidPurchaseId}/release`,
      shows: /./,
    },
    { route: "auctions.results.tsx", path: "/auctions/results?make=Toyota", shows: /./ },
    { route: "account.time-zone.tsx", path: "/account/time-zone", shows: /./ },
    { route: "account._index.tsx", path: "/account", shows: /./ },
    { route: "favorites.tsx", path: "/favorites", shows: /./ },
    { route: "saved-searches.tsx", path: "/saved-searches", shows: /./ },
    { route: "messages._index.tsx", path: "/messages", shows: /./ },
    { route: "messages.new.tsx", path: `/messages/new?listing=${w.listingId}`, shows: /./ },
    { route: "messages.$threadId.tsx", path: `/messages/${w.threadId}`, shows: /./ },
  ],
  approvedAffiliate: (w: World): Screen[] => [
    { route: "_index.tsx", path: "/", shows: /./ },
    {
      route: "affiliate-registration.tsx",
      path: "/affiliate-registration",
      shows: "Application Approved!",
    },
    { route: "service-orders._index.tsx", path: "/service-orders", shows: /./ },
    { route: "service-orders._index.tsx", path: "/service-orders?tab=mine", shows: /./ },
    {
      route: "service-orders._index.tsx",
      path: "/service-orders?q=nothing-matches-this&type=export",
      shows: /./,
      text: "No service orders available",
    },
    { route: "service-orders.$id.tsx", path: `/service-orders/${w.claimedOrderId}`, shows: /./ },
    {
      route: "service-orders.$id_.gate-pass.tsx",
      path: `/service-orders/${w.claimedOrderId}/gate-pass`,
      shows: "Gate pass",
    },
    { route: "service-orders.earnings.tsx", path: "/service-orders/earnings", shows: /./ },
  ],
  pendingAffiliate: (): Screen[] => [
    {
      route: "affiliate-registration.tsx",
      path: "/affiliate-registration",
      shows: "Application Under Review",
    },
    { route: "service-orders._index.tsx", path: "/service-orders", shows: /./ },
  ],
  admin: (w: World): Screen[] => [
    { route: "admin._index.tsx", path: "/admin", shows: /./ },
    ...["users", "early-access", "kyc", "affiliates", "settings", "audit"].map((tab) => ({
      route: "admin._index.tsx",
      path: `/admin?tab=${tab}`,
      shows: /./,
    })),
    { route: "admin._index.tsx", path: "/admin?tab=users&q=a11y", shows: /./ },
    { route: "admin.users.$id.tsx", path: `/admin/users/${w.bidderId}`, shows: /./ },
    { route: "admin_.kyc.tsx", path: "/admin/kyc", shows: /./ },
    { route: "admin_.affiliates.tsx", path: "/admin/affiliates", shows: /./ },
    { route: "admin_.service-orders.new.tsx", path: "/admin/service-orders/new", shows: /./ },
    { route: "admin_.fees.tsx", path: "/admin/fees", shows: /./ },
    { route: "admin_.exchange-rates.tsx", path: "/admin/exchange-rates", shows: "Exchange rates" },
    { route: "admin_.purchases.tsx", path: "/admin/purchases", shows: /./ },
    { route: "admin_.message-reports.tsx", path: "/admin/message-reports", shows: /./ },
    { route: "admin_.contact.tsx", path: "/admin/contact", shows: "Contact messages" },
    { route: "admin_.refunds.tsx", path: "/admin/refunds", shows: "Refunds that need a person" },
    { route: "admin_.jobs.tsx", path: "/admin/jobs", shows: "Failed jobs" },
    { route: "_index.tsx", path: "/", shows: /./ },
  ],
  narrowVisitor: (): Screen[] => [
    { route: "_index.tsx", path: "/", shows: /./ },
    { route: "community-vehicles.tsx", path: "/community-vehicles", shows: /vehicles found$/ },
  ],
  narrowBidder: (w: World): Screen[] => [
    { route: "_index.tsx", path: "/", shows: /./ },
    { route: "auctions._index.tsx", path: "/auctions", shows: "Live Auctions" },
    { route: "auctions.$lotId.tsx", path: `/auctions/${w.lot.id}`, shows: /Camry/ },
    { route: "deposit.tsx", path: "/deposit", shows: "Secure Your Bidding Power" },
    { route: "service-orders._index.tsx", path: "/service-orders", shows: /./ },
    { route: "notifications._index.tsx", path: "/notifications", shows: "Notifications" },
  ],
  narrowAdmin: (): Screen[] => [
    { route: "admin._index.tsx", path: "/admin", shows: /./ },
    { route: "admin_.kyc.tsx", path: "/admin/kyc", shows: /./ },
  ],
};

/** Screens reached through a flow rather than an address of their own. */
const FLOW_ROUTES = ["payments.test-checkout.tsx"];

let world: World;

test.beforeAll(async () => {
  const t = tag();
  const bidder = `a11y-bidder-${t}@bidyard.test`;
  const bidderId = await ensureUser(bidder, {
    first_name: "Bea",
    last_name: "Bidder",
    verified: true,
    deposit: "20000.00",
  });
  const unverified = `a11y-new-${t}@bidyard.test`;
  const unverifiedId = await ensureUser(unverified, { first_name: "Una", last_name: "Verified" });
  const affiliate = `a11y-affiliate-${t}@bidyard.test`;
  const affiliateId = await createAffiliate(affiliate, "approved");
  const pendingAffiliate = `a11y-pending-${t}@bidyard.test`;
  await createAffiliate(pendingAffiliate, "pending", `Pending Carrier ${t}`);
  const admin = `a11y-admin-${t}@bidyard.test`;
  await ensureUser(admin, { first_name: "Ada", last_name: "Admin", role: "admin" });

  const lot = await createLot({ model: `Camry ${t}` });
  const soonLot = await createLot({ model: `Corolla ${t}`, startsIn: "2 hours", endsIn: "2 days" });
  const endingLot = await createLot({ model: `Prius ${t}`, endsIn: "20 minutes" });
  const endedLot = await createLot({ model: `Yaris ${t}`, startsIn: "-2 days", endsIn: "-1 hour" });
  await createNotification(bidderId, "You have been outbid", { link: `/auctions/${lot.id}` });
  await createNotification(bidderId, "Deposit received", { read: true });
  const wonLotId = await createWonLot(bidderId);
  const [{ id: requestedOrderId }] = await query<{ id: string }>(
    `INSERT INTO service_orders (service_type, lot_id, purchase_id, requested_by, vehicle_label,
       vehicle_type, pickup_city, pickup_state, pickup_yard, delivery_city, delivery_state,
       distance_miles, payout)
     SELECT 'shipping', p.lot_id, p.id, p.user_id, '2018 Ford F-150', 'truck', 'Phoenix', 'AZ',
       'Copart Phoenix', 'Long Beach', 'CA', 380, '650.00' FROM purchases p WHERE p.lot_id = $1
     RETURNING id`,
    [wonLotId],
  );
  // A second purchase, so the request screen still has one to offer; it is the paid one.
  const paidLotId = await createWonLot(bidderId);
  const [purchase, paid] = await Promise.all(
    [wonLotId, paidLotId].map(async (lotId) => {
      const [row] = await query<{ id: string }>("SELECT id FROM purchases WHERE lot_id = $1", [
        lotId,
      ]);
      return row.id;
    }),
  );
  await query(
    `UPDATE purchases SET status = 'paid', paid_at = now(), pickup_code = 'A11YPICK',
       due_at = now() + interval '3 days' WHERE id = $1`,
    [paid],
  );
  await createPendingKycDocument(unverifiedId);

  const [seeded] = await query<{ id: string }>(
    `SELECT l.id FROM listings l WHERE l.status = 'active'
       AND EXISTS (SELECT 1 FROM listing_photos p WHERE p.listing_id = l.id)
     ORDER BY l.id LIMIT 1`,
  );
  const ownListingTitle = `Bea's Corolla ${t}`;
  // A conversation with the seller of the seeded listing.
  const [{ id: threadId }] = await query<{ id: string }>(
    `WITH thread AS (
       INSERT INTO message_threads (listing_id, buyer_id, seller_id)
       SELECT id, $2, user_id FROM listings WHERE id = $1 RETURNING id, buyer_id)
     INSERT INTO messages (thread_id, sender_id, body)
     SELECT id, buyer_id, 'Is the title clean?' FROM thread RETURNING thread_id AS id`,
    [seeded.id, bidderId],
  );
  const openOrderLabel = `2019 Toyota Camry ${t}`;
  world = {
    lot,
    soonLot,
    endingLot,
    endedLot,
    listingId: seeded.id,
    ownListingId: await createListing(bidderId, ownListingTitle),
    ownListingTitle,
    openOrderId: await createOrder(openOrderLabel),
    openOrderLabel,
    claimedOrderId: await createOrder(`2020 Honda Civic ${t}`, affiliateId),
    requestedOrderId,
    purchaseId: purchase,
    paidPurchaseId: paid,
    threadId,
    unverified,
    unverifiedId,
    bidder,
    bidderId,
    affiliate,
    pendingAffiliate,
    admin,
  };
});

// The fixture's ID document waits in the admin's queue only while this file runs.
test.afterAll(async () => {
  if (world) await removeKycDocuments(world.unverifiedId);
});

/** A World whose every field reads "0": enough to count and name the screens of a list. */
const placeholder = new Proxy({} as World, {
  get: () => ({ id: "0", vin: "0", toString: () => "0" }),
});

/**
 * One test per group of at most five screens of a list, signed in as `who()`: axe takes seconds a
 * screen on a loaded machine, and each group gets its own time limit.
 */
function sweep(title: string, screens: (w: World) => Screen[], who: () => string) {
  const parts = Math.ceil(screens(placeholder).length / 5);
  for (let part = 0; part < parts; part += 1) {
    test(`${title}, part ${part + 1} of ${parts}`, async ({ page, context }) => {
      await as(context, who());
      const group = screens(world).filter((_, i) => i % parts === part);
      await visitAll(page, title, group);
    });
  }
}

/** Signs in without the onboarding dialog (it has its own check). */
async function as(context: BrowserContext, email: string) {
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  await signInAs(context, email);
}

test("visitor screens, the sign-in page and the shell dialogs", async ({ page }) => {
  await visitAll(page, "visitor", SCREENS.visitor(world));

  // The registration dialog, opened from the header, then with its error.
  await page.goto("/");
  await ready(page);
  await page.getByRole("banner").getByRole("link", { name: "Register" }).click();
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await audit(page, "visitor: registration dialog");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Please fill in every field and agree to the terms.")).toBeVisible();
  await audit(page, "visitor: registration dialog with its error");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("heading", { name: "Create your account" })).toHaveCount(0);

  // The early-access dialog, from the beta banner.
  await page.getByRole("link", { name: "Get Early Access" }).first().click();
  await expect(page.getByRole("heading", { name: "Get Early Access" })).toBeVisible();
  await audit(page, "visitor: early-access dialog");
  await page.keyboard.press("Escape");

  // A protected screen sends a visitor to sign in: that form is checked too.
  await page.goto("/deposit");
  await page.waitForURL((url) => url.hostname === "127.0.0.1");
  await expect(page.getByLabel("E-mail")).toBeVisible();
  await audit(page, "visitor: sign-in form");
});

test("the sign-in notice a visitor gets from a link to a protected screen", async ({ page }) => {
  // A 204 leaves the browser on the notice when its 500 ms are up, so axe sees it as shown.
  await page.route("**/api/login?**", (route) => route.fulfill({ status: 204 }));
  await page.goto("/");
  await ready(page);
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Membership" })
    .click();
  await expect(page.getByRole("heading", { name: "Authentication Required" })).toBeVisible();
  await expect(page.getByTestId("toast")).toContainText("Unauthorized");
  await audit(page, "visitor: sign-in notice with its toast");
});

sweep("unverified user screens", SCREENS.unverified, () => world.unverified);

test("unverified user: bidding before verification", async ({ page, context }) => {
  await as(context, world.unverified);
  // Bidding before verification: the list answers with an alert instead of the dialog.
  await page.goto(`/auctions?search=${world.lot.vin}`);
  await ready(page);
  await page.getByRole("link", { name: "Place Bid", exact: true }).click();
  await expect(page.getByRole("alert").getByText("Verification Required")).toBeVisible();
  await audit(page, "unverified: bid refused alert");
});

sweep("verified bidder screens", SCREENS.bidder, () => world.bidder);

test("verified bidder: the bid dialog and a test-gateway deposit", async ({ page, context }) => {
  await as(context, world.bidder);

  // The bid dialog, opened from the list, then with a validation message in it.
  await page.goto(`/auctions?search=${world.lot.vin}`);
  await ready(page);
  await page.getByRole("link", { name: "Place Bid", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Bid amount (USD)")).toBeVisible();
  await audit(page, "bidder: bid dialog");
  await dialog.getByLabel("Proxy bid (bid for me up to a maximum)").check();
  await dialog.getByLabel("Bid amount (USD)").fill("10");
  await dialog.getByRole("button", { name: "Place Bid" }).click();
  await expect(dialog.getByText(/Minimum bid is/)).toBeVisible();
  await audit(page, "bidder: bid dialog with errors");
  await dialog.getByLabel("Proxy bid (bid for me up to a maximum)").uncheck();
  await dialog.getByLabel("Bid amount (USD)").fill("250");
  await dialog.getByRole("button", { name: "Place Bid" }).click();
  await expect(page.getByRole("status").getByText("Bid Placed Successfully")).toBeVisible();
  await audit(page, "bidder: bid placed notice");

  // The lot page once they lead (bid history, high-bidder state).
  await visitAll(page, "bidder (leading)", [
    { route: "auctions.$lotId.tsx", path: `/auctions/${world.lot.id}`, shows: /Camry/ },
  ]);

  // A deposit through the TEST MODE gateway: its checkout page, then the toast and history.
  await page.goto("/deposit");
  await ready(page);
  await page.getByRole("button", { name: /\$1,000.*Popular/ }).click();
  await page.getByRole("button", { name: "Pay with Test Gateway" }).click();
  await expect(page.getByRole("heading", { name: "Test Checkout" })).toBeVisible();
  await ready(page);
  await audit(page, "bidder: test checkout");
  await page.getByRole("button", { name: "Approve payment" }).click();
  await expect(page.getByText(/Deposit Successful/)).toBeVisible();
  await ready(page);
  await audit(page, "bidder: deposit with history and toast");
});

test("affiliate screens, approved and pending", async ({ page, context }) => {
  await as(context, world.affiliate);
  await visitAll(page, "approved affiliate", SCREENS.approvedAffiliate(world));
  await context.clearCookies();
  await signInAs(context, world.pendingAffiliate);
  await visitAll(page, "pending affiliate", SCREENS.pendingAffiliate());
});

sweep("admin screens", SCREENS.admin, () => world.admin);

/** Submits a form as it stands and checks the page with the errors (or review step) it shows. */
async function afterSubmit(page: Page, label: string, button: string, shows: string | RegExp) {
  await page.getByRole("button", { name: button, exact: true }).first().click();
  await expect(page.getByText(shows).first()).toBeVisible();
  await audit(page, label);
}

test("forms showing their errors and review steps", async ({ page, context }) => {
  await as(context, world.unverified);
  await page.goto("/post-vehicle");
  await ready(page);
  await afterSubmit(page, "unverified: post vehicle errors", "Post Vehicle", /required/i);
  await page.goto("/affiliate-registration");
  await ready(page);
  await afterSubmit(
    page,
    "unverified: affiliate application errors",
    "Submit Application",
    "Company name is required",
  );
  // The upload form shows only to someone with no document under review (record 3333).
  await as(context, `a11y-kyc-new-${Date.now()}@bidyard.test`);
  await page.goto("/kyc-verification");
  await ready(page);
  await afterSubmit(page, "unverified: KYC upload errors", "Upload Document", /choose|select/i);
  await page.getByRole("link", { name: "Get Early Access" }).first().click();
  await page.getByLabel("Email").fill("not-an-email");
  await afterSubmit(page, "unverified: early-access errors", "Join Early Access", /valid/i);

  await context.clearCookies();
  await signInAs(context, world.bidder);
  await page.goto("/service-orders/request");
  await ready(page);
  await afterSubmit(
    page,
    "bidder: service request errors",
    "Request service",
    /required|choose|a ZIP code/i,
  );
  await page.goto(`/vehicle/${world.ownListingId}?edit=1`);
  await ready(page);
  await page.getByLabel(/^Title/).fill("");
  await afterSubmit(page, "bidder: listing edit errors", "Save Changes", /required/i);

  await context.clearCookies();
  await signInAs(context, world.admin);
  await page.goto("/admin/service-orders/new");
  await ready(page);
  await afterSubmit(page, "admin: new order errors", "Create order", "Choose the pickup city");
  await page.goto(`/admin/users/${world.bidderId}`);
  await ready(page);
  await page.getByLabel("Role").selectOption("admin");
  await afterSubmit(page, "admin: user change review", "Review changes", "Confirm changes");
});

test("the onboarding dialog after a sign-in", async ({ page, context }) => {
  await signInAs(context, world.bidder);
  // What the sign-in callback leaves for the browser.
  const origin = new URL(test.info().project.use.baseURL!).origin;
  await context.addCookies([{ name: "bidyard_signed_in", value: "1", url: origin }]);
  await page.goto("/");
  await ready(page);
  await expect(page.getByRole("heading", { name: "Welcome", exact: true })).toBeVisible();
  await audit(page, "onboarding: first step");
  for (let step = 2; step <= 5; step += 1) await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("button", { name: "Get Started" })).toBeVisible();
  await audit(page, "onboarding: last step");
});

test("screens at 360 px wide", async ({ page, context }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await visitAll(page, "visitor 360px", SCREENS.narrowVisitor());
  await as(context, world.bidder);
  await visitAll(page, "bidder 360px", SCREENS.narrowBidder(world));
  await page.goto(`/auctions?search=${world.lot.vin}`);
  await ready(page);
  await page.getByRole("link", { name: "Auto Bid", exact: true }).click();
  await expect(page.getByRole("dialog").getByLabel("Bid amount (USD)")).toBeVisible();
  await audit(page, "bidder 360px: bid dialog");
  await context.clearCookies();
  await signInAs(context, world.admin);
  await visitAll(page, "admin 360px", SCREENS.narrowAdmin());
});

test("every page route in app/routes is in a list above", async () => {
  const pages = routeModuleFiles()
    .map((route) => route.name)
    .filter((file) => file.endsWith(".tsx") && !file.startsWith("api."));
  expect(pages.length).toBeGreaterThan(15);
  const listed = new Set([
    ...Object.values(SCREENS).flatMap((list) => list(placeholder).map((s) => s.route)),
    ...FLOW_ROUTES,
  ]);
  expect([...listed].sort()).toEqual(pages.sort());
});
