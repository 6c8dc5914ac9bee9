// Every screen at 360 and 1,280 px, with 100-character names and titles on every kind of row it
// shows: no page may be wider than the window (long text wraps, or is cut short with the whole
// value in a title or a details). Runs with JavaScript on and off; the last test fails when a
// page route in app/routes is in none of the lists below.
import { routeModuleFiles } from "../support/route-files";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { arrangeLongWorld, removeKycDocuments, type LongWorld } from "./arrange";
import { signInAs } from "./db";
import { ready } from "./helpers";

test.describe.configure({ timeout: 180_000 });

const WIDTHS = [360, 1280] as const;

type Screen = {
  /** The route file under app/routes that renders it. */
  route: string;
  path: string;
  status?: number;
};

/** Every screen by address, per persona, over the long world's rows. */
const SCREENS = {
  visitor: (w: LongWorld): Screen[] => [
    { route: "_index.tsx", path: "/" },
    { route: "community-vehicles.tsx", path: "/community-vehicles" },
    { route: "vehicle.$id.tsx", path: `/vehicle/${w.listingId}` },
    { route: "unsubscribe.$token.tsx", path: "/unsubscribe/not-a-signed-link", status: 400 },
    { route: "$.tsx", path: "/no-such-page", status: 404 },
    { route: "terms.tsx", path: "/terms" },
    { route: "privacy.tsx", path: "/privacy" },
    { route: "contact.tsx", path: "/contact" },
    { route: "register.tsx", path: "/register" },
  ],
  unverified: (): Screen[] => [
    { route: "kyc-verification.tsx", path: "/kyc-verification" },
    { route: "affiliate-registration.tsx", path: "/affiliate-registration" },
    { route: "post-vehicle.tsx", path: "/post-vehicle" },
    { route: "membership.tsx", path: "/membership" },
  ],
  bidder: (w: LongWorld): Screen[] => [
    { route: "_index.tsx", path: "/" },
    { route: "auctions._index.tsx", path: `/auctions?search=${w.lot.vin}` },
    { route: "auctions._index.tsx", path: `/auctions?search=${"x".repeat(550)}` },
    { route: "auctions.$lotId.tsx", path: `/auctions/${w.lot.id}` },
    { route: "auctions.$lotId_.comparables.tsx", path: `/auctions/${w.lot.id}/comparables` },
    { route: "auctions.$lotId_.vin.tsx", path: `/auctions/${w.lot.id}/vin` },
    { route: "auctions.results.tsx", path: "/auctions/results?make=Ford" },
    { route: "community-vehicles.tsx", path: "/community-vehicles?currency=MXN&priceMax=9" },
    { route: "vehicle.$id.tsx", path: `/vehicle/${w.listingId}` },
    { route: "vehicle.$id.tsx", path: `/vehicle/${w.listingId}?edit=1` },
    { route: "deposit.tsx", path: "/deposit" },
    { route: "notifications._index.tsx", path: "/notifications" },
    { route: "my-auctions.tsx", path: "/my-auctions" },
    { route: "purchases.$id.tsx", path: `/purchases/${w.unpaidPurchaseId}` },
    { route: "purchases.$id_.release.tsx", path: `/purchases/${w.paidPurchaseId}/release` },
    { route: "service-orders.request.tsx", path: "/service-orders/request" },
    { route: "service-orders.$id.tsx", path: `/service-orders/${w.requestedOrderId}` },
    { route: "favorites.tsx", path: "/favorites" },
    { route: "saved-searches.tsx", path: "/saved-searches" },
    { route: "messages._index.tsx", path: "/messages" },
    { route: "messages.new.tsx", path: `/messages/new?listing=${w.sellerListingId}` },
    { route: "messages.$threadId.tsx", path: `/messages/${w.threadId}` },
    { route: "account._index.tsx", path: "/account" },
    { route: "account.time-zone.tsx", path: "/account/time-zone" },
  ],
  affiliate: (w: LongWorld): Screen[] => [
    { route: "affiliate-registration.tsx", path: "/affiliate-registration" },
    { route: "service-orders._index.tsx", path: "/service-orders" },
    { route: "service-orders._index.tsx", path: "/service-orders?tab=mine" },
    { route: "service-orders.$id.tsx", path: `/service-orders/${w.openOrderId}` },
    { route: "service-orders.$id.tsx", path: `/service-orders/${w.claimedOrderId}` },
    {
      route: "service-orders.$id_.gate-pass.tsx",
      path: `/service-orders/${w.claimedOrderId}/gate-pass`,
    },
    { route: "service-orders.earnings.tsx", path: "/service-orders/earnings" },
  ],
  pendingAffiliate: (): Screen[] => [
    { route: "affiliate-registration.tsx", path: "/affiliate-registration" },
    { route: "service-orders._index.tsx", path: "/service-orders" },
  ],
  admin: (w: LongWorld): Screen[] => [
    ...["users", "early-access", "kyc", "affiliates", "settings", "audit"].map((tab) => ({
      route: "admin._index.tsx",
      path: `/admin?tab=${tab}`,
    })),
    { route: "admin.users.$id.tsx", path: `/admin/users/${w.bidderId}` },
    { route: "admin.users.$id.tsx", path: `/admin/users/${w.unverifiedId}` },
    { route: "admin_.kyc.tsx", path: "/admin/kyc" },
    { route: "admin_.affiliates.tsx", path: "/admin/affiliates" },
    { route: "admin_.service-orders.new.tsx", path: "/admin/service-orders/new" },
    { route: "admin_.fees.tsx", path: "/admin/fees" },
    { route: "admin_.purchases.tsx", path: "/admin/purchases" },
    { route: "admin_.message-reports.tsx", path: "/admin/message-reports" },
    { route: "admin_.exchange-rates.tsx", path: "/admin/exchange-rates" },
    { route: "admin_.contact.tsx", path: "/admin/contact" },
    { route: "admin_.refunds.tsx", path: "/admin/refunds" },
    { route: "admin_.jobs.tsx", path: "/admin/jobs" },
  ],
};

/** Screens reached through a flow rather than an address of their own. */
const FLOW_ROUTES = ["payments.test-checkout.tsx"];

/**
 * How far the page is wider than the window, and the outermost elements that stick out (for the
 * failure message); null when nothing does.
 */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const extra = document.documentElement.scrollWidth - width;
    if (extra <= 0) return null;
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : "";
      const cls =
        typeof el.className === "string" && el.className
          ? `.${el.className.trim().split(/\s+/).slice(0, 3).join(".")}`
          : "";
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `${el.tagName.toLowerCase()}${id}${cls} "${text}" (${Math.round(el.getBoundingClientRect().right)}px)`;
    };
    const sticking = [...document.body.querySelectorAll("*")].filter((el) => {
      const right = el.getBoundingClientRect().right;
      const parent = el.parentElement;
      return (
        right > width + 1 && parent !== null && parent.getBoundingClientRect().right <= width + 1
      );
    });
    return { extra, sticking: sticking.slice(0, 5).map(describe) };
  });
}

async function sweep(page: Page, persona: string, screens: Screen[]) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const screen of screens) {
      const response = await page.goto(screen.path);
      const label = `${persona} ${screen.path.slice(0, 120)} at ${width}px`;
      expect(response?.status(), label).toBe(screen.status ?? 200);
      await ready(page);
      expect.soft(await overflow(page), label).toBeNull();
    }
  }
}

let world: LongWorld;

test.beforeAll(async () => {
  world = await arrangeLongWorld();
});

// The long-named ID document waits in the admin's queue only while this file runs.
test.afterAll(async () => {
  if (world) await removeKycDocuments(world.unverifiedId);
});

async function as(context: BrowserContext, email: string) {
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  await signInAs(context, email);
}

test("visitor screens", async ({ page }) => {
  await sweep(page, "visitor", SCREENS.visitor(world));
});

test("unverified screens", async ({ page, context }) => {
  await as(context, world.unverified);
  await sweep(page, "unverified", SCREENS.unverified());
});

test("bidder screens", async ({ page, context }) => {
  await as(context, world.bidder);
  await sweep(page, "bidder", SCREENS.bidder(world));
});

test("provider screens", async ({ page, context }) => {
  await as(context, world.affiliate);
  await sweep(page, "affiliate", SCREENS.affiliate(world));
  await context.clearCookies();
  await signInAs(context, world.pendingAffiliate);
  await sweep(page, "pending affiliate", SCREENS.pendingAffiliate());
});

test("admin screens", async ({ page, context }) => {
  await as(context, world.admin);
  await sweep(page, "admin", SCREENS.admin(world));
});

test("every page route in app/routes is swept", async () => {
  const placeholder = new Proxy({} as LongWorld, {
    get: () => ({ id: "0", vin: "0", toString: () => "0" }),
  });
  const pages = routeModuleFiles()
    .map((route) => route.name)
    .filter((file) => file.endsWith(".tsx") && !file.startsWith("api."));
  const swept = new Set([
    ...Object.values(SCREENS).flatMap((list) => list(placeholder).map((s) => s.route)),
    ...FLOW_ROUTES,
  ]);
  expect([...swept].sort()).toEqual(pages.sort());
});
