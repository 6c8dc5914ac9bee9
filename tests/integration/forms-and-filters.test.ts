// Issue 28, errors and filters: what a person types is answered beside its field (never a page
// of its own), filter choices come from the data with counts, community prices compare in the
// buyer's currency at dated rates, the unsubscribe state shows on saved searches, and a refund
// is confirmed before it moves.
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { unsubscribeToken } from "~/platform/mail/unsubscribe.server";
import * as affiliateRoute from "~/routes/affiliate-registration/route";
import * as auctionsRoute from "~/routes/auctions._index/route";
import * as communityRoute from "~/routes/community-vehicles/route";
import * as depositRoute from "~/routes/deposit/route";
import * as ratesRoute from "~/routes/admin_.exchange-rates";
import * as savedRoute from "~/routes/saved-searches";
import * as thread from "~/routes/messages.$threadId";
import * as newMessage from "~/routes/messages.new";
import * as unsubscribeRoute from "~/routes/unsubscribe.$token";
import { matchSavedSearches } from "~/services/alerts/matching.server";
import {
  listSavedSearches,
  saveSearch,
  updateSavedSearch,
} from "~/services/alerts/saved-searches.server";
import {
  countAuctionFilterOptions,
  forgetAuctionFilterOptions,
} from "~/services/auctions/filter-options.server";
import { seedTestDeposit } from "~/services/deposits/deposits.server";
import { forgetListingFilterOptions } from "~/services/listings/filter-options.server";
import { createTestUser, requestAs } from "../support/auth";
import { createTestListing } from "../support/listings";
import { createTestLot } from "../support/lots";
import { call, type Handler } from "../support/routes";
import { withTestGateway } from "../support/gateway";

withTestGateway();

type User = Awaited<ReturnType<typeof createTestUser>>;

async function get(handler: Handler, user: User | null, path: string, params = {}) {
  const response = await call(handler, await requestAs(user, path), params);
  return { status: response.status, body: await response.json().catch(() => null) };
}

async function post(
  handler: Handler,
  user: User | null,
  path: string,
  form: Record<string, string>,
  params = {},
) {
  const response = await call(handler, await requestAs(user, path, { form }), params);
  const body = response.headers.get("Content-Type")?.includes("json")
    ? await response.json()
    : null;
  return { status: response.status, body, location: response.headers.get("Location") };
}

describe("reporting a message", () => {
  it("an empty reason is answered under the reason field, not with a page of its own", async () => {
    const seller = await createTestUser();
    const buyer = await createTestUser();
    const listing = await createTestListing(seller, { title: "Reported car" });
    const sent = await post(
      newMessage.action as Handler,
      buyer,
      `/messages/new?listing=${listing.id}`,
      {
        body: "Pay me by gift card",
      },
    );
    const threadId = sent.location!.split("/").pop()!;
    const view = await get(thread.loader as Handler, seller, `/messages/${threadId}`, { threadId });
    const messageId = view.body.thread.messages[0].id;

    const refused = await post(
      thread.action as Handler,
      seller,
      `/messages/${threadId}`,
      { intent: "report", messageId, reason: "   " },
      { threadId },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.report.messageId).toBe(messageId);
    expect(refused.body.report.result.error).toEqual({ reason: ["Say what is wrong"] });
    const [{ n }] = await sequelize.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM message_reports WHERE message_id = :messageId",
      { replacements: { messageId }, type: QueryTypes.SELECT },
    );
    expect(n).toBe(0);
  });
});

describe("the auction list's filters", () => {
  it("a 550-character search keeps the page and its filters and says the limit", async () => {
    const user = await createTestUser();
    const page = await get(
      auctionsRoute.loader as Handler,
      user,
      `/auctions?make=Ford&search=${"x".repeat(550)}`,
    );
    expect(page.status).toBe(200);
    expect(page.body.ignored).toEqual([
      { key: "search", value: "x".repeat(550), problem: "Use at most 60 characters" },
    ]);
    expect(page.body.query).toMatchObject({ make: "Ford" });
    expect(page.body.query.search).toBeUndefined();
    expect(page.body.savedQuery).toBe("make=Ford");
  });

  it("a backwards year range is turned round and named", async () => {
    const user = await createTestUser();
    const tag = `Rev${Date.now()}`;
    const lot = await createTestLot({ model: tag, year: 2016 });
    const page = await get(
      auctionsRoute.loader as Handler,
      user,
      `/auctions?search=${tag}&yearMin=2025&yearMax=2012`,
    );
    expect(page.status).toBe(200);
    expect(page.body.query).toMatchObject({ yearMin: 2012, yearMax: 2025 });
    expect(page.body.notices.join(" ")).toMatch(/runs backwards.*2012 to 2025/);
    expect(page.body.vehicles.map((v: { id: string }) => v.id)).toEqual([String(lot.id)]);
  });

  it("offers every make, state, damage and title the open lots carry, with counts", async () => {
    const user = await createTestUser();
    await createTestLot({
      make: "Tesla",
      locationState: "AZ",
      damageType: "fire",
      titleType: "parts_only",
    });
    await createTestLot({ make: "Tesla", locationState: "GA", damageType: "mechanical" });
    await createTestLot({
      make: "Kia",
      locationState: "IL",
      status: "unsold",
      closedAt: new Date(),
    });
    const counted = await countAuctionFilterOptions();
    const count = (list: { value: string; count: number }[], value: string) =>
      list.find((option) => option.value === value)?.count;
    expect(count(counted.makes, "Tesla")).toBe(2);
    // A closed lot is not on offer.
    expect(count(counted.makes, "Kia")).toBeUndefined();
    expect(count(counted.states, "AZ")).toBe(1);
    expect(count(counted.states, "GA")).toBe(1);
    expect(count(counted.damageTypes, "fire")).toBe(1);
    expect(count(counted.damageTypes, "mechanical")).toBe(1);
    expect(counted.titleTypes.find((o) => o.value === "parts_only")?.label).toBe("Parts only");

    forgetAuctionFilterOptions();
    const page = await get(auctionsRoute.loader as Handler, user, "/auctions");
    expect(count(page.body.options.makes, "Tesla")).toBe(2);
    // The page reads one shared copy: a lot listed since shows at the next refresh, not at once.
    await createTestLot({ make: "Tesla", locationState: "AZ" });
    const again = await get(auctionsRoute.loader as Handler, user, "/auctions");
    expect(count(again.body.options.makes, "Tesla")).toBe(2);
  });
});

describe("community prices in the buyer's currency", () => {
  it("finds a peso listing under a dollar maximum, at the dated rate it names", async () => {
    const seller = await createTestUser();
    const tag = `Terrain${Date.now()}`;
    const pesos = await createTestListing(seller, {
      title: `${tag} in Monterrey`,
      price: "58500.00",
      currency: "MXN",
      country: "MX",
      state: "NL",
      city: "Monterrey",
    });
    const dollars = await createTestListing(seller, {
      title: `${tag} in Austin`,
      price: "12000.00",
    });
    forgetListingFilterOptions();
    const ids = (body: { page: { listings: { id: string }[] } }) =>
      body.page.listings.map((l) => l.id).sort();

    // 58,500 MXN at 19.5 per dollar is 3,000 USD.
    const under = await get(
      communityRoute.loader as Handler,
      null,
      `/community-vehicles?search=${tag}&priceMax=10000`,
    );
    expect(ids(under.body)).toEqual([String(pesos.id)]);
    const card = under.body.page.listings[0];
    expect(card.converted).toEqual({ price: "3000", currency: "USD" });
    expect(under.body.rates.asOf.MXN).toBe("2026-11-20");

    // In pesos, the dollar listing is 234,000 MXN.
    const inPesos = await get(
      communityRoute.loader as Handler,
      null,
      `/community-vehicles?search=${tag}&currency=MXN&priceMin=200000`,
    );
    expect(ids(inPesos.body)).toEqual([String(dollars.id)]);

    // An admin moves the rate; the search follows at once in this process.
    const admin = await createTestUser({ role: "admin" });
    const saved = await post(ratesRoute.action as Handler, admin, "/admin/exchange-rates", {
      currency: "MXN",
      perUsd: "5",
      asOf: new Date().toISOString().slice(0, 10),
    });
    expect(saved.status).toBe(302);
    const after = await get(
      communityRoute.loader as Handler,
      null,
      `/community-vehicles?search=${tag}&priceMax=10000`,
    );
    expect(ids(after.body)).toEqual([]);
    const [{ n }] = await sequelize.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM admin_audit_log WHERE action = 'exchange_rate.set'",
      { type: QueryTypes.SELECT },
    );
    expect(n).toBe(1);
  });

  it("the admin's rate form answers under its fields", async () => {
    const admin = await createTestUser({ role: "admin" });
    const future = await post(ratesRoute.action as Handler, admin, "/admin/exchange-rates", {
      currency: "CAD",
      perUsd: "1.39",
      asOf: "2999-01-01",
    });
    expect(future.status).toBe(400);
    expect(future.body.error).toEqual({ asOf: ["The date cannot be after today."] });
    const big = await post(ratesRoute.action as Handler, admin, "/admin/exchange-rates", {
      currency: "CAD",
      perUsd: "99999999999",
      asOf: "2026-11-20",
    });
    expect(big.body.error).toEqual({ perUsd: ["A rate is at most 100,000"] });
    const visitor = await createTestUser();
    expect((await get(ratesRoute.loader as Handler, visitor, "/admin/exchange-rates")).status).toBe(
      403,
    );
  });

  it("a backwards year range is turned round and named", async () => {
    const seller = await createTestUser();
    const tag = `Years${Date.now()}`;
    const old = await createTestListing(seller, { title: tag, year: 2008 });
    const inside = await createTestListing(seller, { title: tag, year: 2016 });
    const page = await get(
      communityRoute.loader as Handler,
      null,
      `/community-vehicles?search=${tag}&yearMin=2025&yearMax=2012`,
    );
    expect(page.body.filters).toMatchObject({ yearMin: 2012, yearMax: 2025 });
    expect(page.body.notices.join(" ")).toMatch(/runs backwards.*2012 to 2025/);
    const found = page.body.page.listings.map((l: { id: string }) => l.id);
    expect(found).toEqual([String(inside.id)]);
    expect(found).not.toContain(String(old.id));
  });

  it("offers the makes, conditions and body types listed, with counts", async () => {
    const seller = await createTestUser();
    await createTestListing(seller, { make: "Lada", condition: "poor", bodyType: "hatchback" });
    await createTestListing(seller, { make: "lada", condition: "poor", bodyType: "hatchback" });
    forgetListingFilterOptions();
    const page = await get(communityRoute.loader as Handler, null, "/community-vehicles");
    const lada = page.body.options.makes.find((o: { label: string }) => /lada/i.test(o.label));
    expect(lada.count).toBe(2);
    expect(page.body.options.conditions.map((o: { value: string }) => o.value)).toContain("poor");
  });
});

describe("saved searches and the unsubscribe link", () => {
  it("the page shows e-mail off after an unsubscribe, and a used link says so", async () => {
    const user = await createTestUser();
    const first = await saveSearch(user.id, { scope: "auctions", query: "make=Ford", email: true });
    await saveSearch(user.id, { scope: "auctions", query: "make=Kia", email: true });
    const token = unsubscribeToken(user.id, "alerts");

    const before = await get(unsubscribeRoute.loader as Handler, null, `/unsubscribe/${token}`, {
      token,
    });
    expect(before.body.already).toBe(false);
    const done = await post(
      unsubscribeRoute.action as Handler,
      null,
      `/unsubscribe/${token}`,
      { intent: "unsubscribe" },
      { token },
    );
    expect(done.status).toBe(200);

    expect((await listSavedSearches(user.id)).map((s) => s.email)).toEqual([false, false]);
    const page = await get(savedRoute.loader as Handler, user, "/saved-searches");
    expect(page.body.mailStoppedAt).not.toBeNull();
    const again = await get(unsubscribeRoute.loader as Handler, null, `/unsubscribe/${token}`, {
      token,
    });
    expect(again.body.already).toBe(true);

    // Asking for one search's e-mail again lifts the unsubscribe for that one only.
    await updateSavedSearch(user.id, first.id, "email-on");
    const searches = await listSavedSearches(user.id);
    expect(searches.map((s) => [s.query, s.email])).toEqual([
      ["make=Kia", false],
      ["make=Ford", true],
    ]);
    expect(
      (await get(unsubscribeRoute.loader as Handler, null, `/unsubscribe/${token}`, { token })).body
        .already,
    ).toBe(false);
  });

  it("the alert e-mail links to each new listing", async () => {
    const user = await createTestUser();
    const seller = await createTestUser();
    const tag = `Alert${Date.now()}`;
    await saveSearch(user.id, { scope: "community", query: `search=${tag}`, email: true });
    const listing = await createTestListing(seller, { title: `${tag} wagon` });
    await matchSavedSearches();
    const [mail] = await sequelize.query<{ html_body: string; text_body: string }>(
      "SELECT html_body, text_body FROM mail_outbox WHERE user_id = :userId",
      { replacements: { userId: user.id }, type: QueryTypes.SELECT },
    );
    expect(mail.html_body).toMatch(
      new RegExp(`<a href="[^"]*/vehicle/${listing.id}">${tag} wagon</a>`),
    );
    expect(mail.text_body).toContain(`/vehicle/${listing.id}`);
  });
});

describe("a refund is confirmed first", () => {
  it("the review names the amount and where it goes, and moves nothing", async () => {
    const user = await createTestUser();
    await seedTestDeposit(user.id, "2500.00");
    const review = await post(depositRoute.action as Handler, user, "/deposit", {
      intent: "refund-review",
      refundAmount: "2200",
    });
    expect(review.status).toBe(200);
    expect(review.body.review).toMatchObject({
      amount: "2200.00",
      destination: "the test payment you made (TEST MODE: no real money moves)",
    });
    await user.reload();
    expect(user.deposit).toBe("2500.00");

    const tooMuch = await post(depositRoute.action as Handler, user, "/deposit", {
      intent: "refund-review",
      refundAmount: "5000",
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.result.error.refundAmount[0]).toMatch(/at most \$2,500\.00/);
    expect(tooMuch.body.review).toBeUndefined();
  });
});

describe("the provider application", () => {
  const application = {
    companyName: "Lone Star Transport",
    "serviceTypes[0]": "shipping",
    businessPhone: "214-555-0100",
    businessEmail: "ops@lonestar.test",
    serviceAreas: "Texas",
    agreeToTerms: "on",
  };

  it("refuses a phone that is not one, beside the field", async () => {
    const user = await createTestUser();
    const refused = await post(affiliateRoute.action as Handler, user, "/affiliate-registration", {
      ...application,
      businessPhone: "call me maybe 😀",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      businessPhone: ["Enter a phone number, like 214-555-0100"],
    });
  });

  it("a licence that failed to upload holds the application back until it is removed", async () => {
    const user = await createTestUser();
    const held = await post(affiliateRoute.action as Handler, user, "/affiliate-registration", {
      ...application,
      licenseDocumentState: "failed",
    });
    expect(held.status).toBe(400);
    expect(held.body.error.licenseDocumentState[0]).toMatch(/did not upload/);
    const [{ n }] = await sequelize.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM affiliate_applications WHERE user_id = :userId",
      { replacements: { userId: user.id }, type: QueryTypes.SELECT },
    );
    expect(n).toBe(0);
    const sent = await post(
      affiliateRoute.action as Handler,
      user,
      "/affiliate-registration",
      application,
    );
    expect(sent.status).toBe(302);
  });
});
