// The security suite (tests/support/security-app.ts), guessing ids: another user's KYC documents,
// deposit orders and ledger, service orders, listing edits, notifications and bids answer 404/403
// (or show nothing of theirs).
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { Notification } from "~/models/notification.server";
import { createAdmin, createAffiliate, createTestOrder } from "../support/affiliates";
import { createTestUser } from "../support/auth";
import { PDF_BYTES } from "../support/kyc-files";
import { createTestListing } from "../support/listings";
import { createTestLot } from "../support/lots";
import {
  Browser,
  browserFor,
  jpegPhoto,
  securityApp,
  startSecurityApp,
  storedFiles,
  unique,
} from "../support/security-app";
import { count } from "../support/sql";

startSecurityApp();

describe("guessing another user's ids", () => {
  it("KYC documents: the file, the list and the upload URL are the owner's (and admins')", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const admin = await createAdmin();
    const ownerBrowser = await browserFor(owner);
    const form = new FormData();
    form.set("documentType", "passport");
    form.set("file", new File([PDF_BYTES], "passport.pdf", { type: "application/pdf" }));
    expect((await ownerBrowser.send("/kyc-verification", { body: form })).status).toBe(302);
    const [document] = await sequelize.query<{ id: string; object_key: string }>(
      "select id, object_key from kyc_documents where user_id = $1",
      { bind: [owner.id], type: QueryTypes.SELECT },
    );
    const objectPath = `/objects/${document.object_key}`;

    const otherBrowser = await browserFor(other);
    expect((await otherBrowser.send(objectPath)).status).toBe(404);
    const list = await otherBrowser.send("/api/kyc/documents");
    expect(await list.json()).toEqual([]);
    const steal = await otherBrowser.send("/api/kyc/documents", {
      json: { documentType: "passport", documentUrl: objectPath },
    });
    expect([403, 404]).toContain(steal.status);
    const confirm = await otherBrowser.send("/api/kyc/document-url", {
      method: "PUT",
      json: { documentURL: `${securityApp.url}/storage/${document.object_key}` },
    });
    expect([403, 404]).toContain(confirm.status);
    expect(
      (await otherBrowser.send(`/api/admin/kyc/${document.id}/approve`, { method: "POST" })).status,
    ).toBe(403);
    const page = await (await otherBrowser.send("/kyc-verification")).text();
    expect(page).not.toContain(document.object_key);
    expect(await count("select count(*) n from kyc_documents where user_id = $1", [other.id])).toBe(
      0,
    );
    // The owner and an admin do get the file.
    expect((await ownerBrowser.send(objectPath)).status).toBe(302);
    expect((await (await browserFor(admin)).send(objectPath)).status).toBe(302);
  });

  it("deposit orders and the ledger: another user's order cannot be captured or seen", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const ownerBrowser = await browserFor(owner);
    const pay = await ownerBrowser.send("/deposit", { form: { intent: "pay", amount: "731" } });
    expect(pay.status).toBe(302);
    const approval = new URL(pay.headers.get("location")!, securityApp.url);
    const token = approval.searchParams.get("token")!;
    const approved = await ownerBrowser.send(`${approval.pathname}${approval.search}`, {
      form: { token, intent: "approve" },
    });
    expect(approved.status).toBe(302);

    const otherBrowser = await browserFor(other);
    const byCall = await otherBrowser.send("/api/confirm-deposit", {
      json: { orderID: token, amount: "731.00" },
    });
    expect(byCall.status).toBe(404);
    expect(
      (await otherBrowser.send(`/paypal/order/${token}/capture`, { method: "POST" })).status,
    ).toBe(404);
    const byReturn = await otherBrowser.send(`/deposit/return?token=${token}`);
    expect(byReturn.headers.get("location")).toBe("/deposit");
    const otherPage = await (await otherBrowser.send("/deposit")).text();
    expect(otherPage).not.toContain("731.00");
    expect(
      await count("select count(*) n from deposit_entries where user_id in ($1, $2)", [
        owner.id,
        other.id,
      ]),
    ).toBe(0);

    // The owner's own return captures it: the order was real all along.
    const mine = await ownerBrowser.send(`/deposit/return?token=${token}`);
    expect(mine.headers.get("location")).toBe("/deposit");
    expect(
      await count("select count(*) n from deposit_entries where user_id = $1", [owner.id]),
    ).toBe(1);
    expect(
      await count("select count(*) n from deposit_entries where user_id = $1", [other.id]),
    ).toBe(0);
    expect(await (await ownerBrowser.send("/deposit")).text()).toContain("731.00");
  });

  it("service orders: once claimed, only the claimer, the buyer and admins can open one", async () => {
    const admin = await createAdmin();
    const order = await createTestOrder(admin, { vehicleLabel: "2016 Honda Civic Private" });
    const claimer = await createAffiliate();
    const rival = await createAffiliate();
    const stranger = await createTestUser();
    const rivalBrowser = await browserFor(rival);
    // Open: on the board for everyone.
    expect((await rivalBrowser.send(`/service-orders/${order.id}`)).status).toBe(200);
    const claimerBrowser = await browserFor(claimer);
    const claim = await claimerBrowser.send(`/api/service-orders/${order.id}/claim`, {
      method: "POST",
    });
    expect(claim.status).toBe(200);

    for (const person of [rival, stranger]) {
      const browser = await browserFor(person);
      const page = await browser.send(`/service-orders/${order.id}`);
      expect(page.status).toBe(404);
      expect(await page.text()).not.toContain("Honda Civic Private");
      for (const step of ["start", "complete", "claim"]) {
        const response = await browser.send(`/api/service-orders/${order.id}/${step}`, {
          method: "POST",
        });
        expect([403, 404, 409], step).toContain(response.status);
      }
      const mine = await (await browser.send("/api/affiliates/service-orders")).text();
      expect(mine).not.toContain("Honda Civic Private");
    }
    const [row] = await sequelize.query<{ status: string; claimed_by: string }>(
      "select status, claimed_by from service_orders where id = $1",
      { bind: [order.id], type: QueryTypes.SELECT },
    );
    expect(row).toEqual({ status: "claimed", claimed_by: claimer.id });
    // The lost claim's form post goes back to the board, not to a page it may not open.
    const lost = await rivalBrowser.send(`/service-orders/${order.id}`, {
      form: { intent: "claim", redirectTo: `/service-orders/${order.id}` },
    });
    expect(lost.headers.get("location")).toBe("/service-orders");
    expect((await claimerBrowser.send(`/service-orders/${order.id}`)).status).toBe(200);
    expect((await (await browserFor(admin)).send(`/service-orders/${order.id}`)).status).toBe(200);
  });

  it("listings: another user's listing cannot be edited, sold, deleted or given photos", async () => {
    const owner = await createTestUser();
    const listing = await createTestListing(owner, { title: "Owner's own Corolla" });
    const browser = await browserFor(await createTestUser());
    for (const form of [
      {
        intent: "update",
        title: "Hijacked",
        make: "Jeep",
        model: "Wrangler",
        year: "2017",
        price: "100",
        condition: "good",
        city: "Austin",
      },
      { intent: "markSold" },
      { intent: "delete" },
    ] as Array<Record<string, string>>) {
      const response = await browser.send(`/vehicle/${listing.id}`, { form });
      expect(response.status, form.intent).toBe(404);
    }
    const withPhoto = new FormData();
    for (const [key, value] of Object.entries({
      intent: "update",
      title: "Hijacked",
      make: "Jeep",
      model: "X",
      year: "2017",
      price: "1",
      condition: "good",
      city: "Austin",
    }))
      withPhoto.set(key, value);
    withPhoto.append(
      "photos",
      new File([await jpegPhoto(64, 48)], "x.jpg", { type: "image/jpeg" }),
    );
    const before = storedFiles();
    expect((await browser.send(`/vehicle/${listing.id}`, { body: withPhoto })).status).toBe(404);
    expect(storedFiles()).toEqual(before);
    await listing.reload();
    expect(listing).toMatchObject({ title: "Owner's own Corolla", status: "active" });
    expect(
      await count("select count(*) n from listing_photos where listing_id = $1", [listing.id]),
    ).toBe(0);
  });

  it("notifications: another user's cannot be listed or marked read by id", async () => {
    const owner = await createTestUser();
    const note = await Notification.create({
      userId: owner.id,
      kind: "test",
      title: "Private: your deposit of $912 arrived",
      body: "",
      link: null,
      readAt: null,
    });
    const browser = await browserFor(await createTestUser());
    const page = await (await browser.send("/notifications")).text();
    expect(page).not.toContain("Private: your deposit");
    const mark = await browser.send("/notifications", { form: { id: String(note.id) } });
    expect(mark.status).toBe(302);
    await note.reload();
    expect(note.readAt).toBeNull();
    const older = await (await browser.send(`/notifications?before=${Number(note.id) + 1}`)).text();
    expect(older).not.toContain("Private: your deposit");
  });

  it("bids: a lot's history never shows who bid or their proxy maximum", async () => {
    const lot = await createTestLot();
    const bidder = await createTestUser({
      verified: true,
      deposit: "5000.00",
      email: unique("bidder"),
    });
    const placed = await (
      await browserFor(bidder)
    ).send("/api/bids", {
      json: { vehicleId: Number(lot.id), amount: "100", isProxyBid: true, maxAmount: "4321.00" },
    });
    expect(placed.status).toBe(201);
    const onlooker = await browserFor(await createTestUser());
    const page = await onlooker.send(`/auctions/${lot.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/Bidder \d{4}/);
    expect(html).not.toContain(bidder.email);
    expect(html).not.toContain(bidder.id);
    expect(html).not.toContain("4,321.00");
    expect(html).not.toContain("4321.00");
    // The pseudonym is keyed with the server's secret: the unkeyed hash of lot and user no
    // longer names this bidder.
    let hash = 2166136261;
    for (const char of `${lot.id}:${bidder.id}`) {
      hash ^= char.charCodeAt(0);
      hash = Math.imul(hash, 16777619);
    }
    const unkeyed = `Bidder ${1000 + ((hash >>> 0) % 9000)}`;
    const shown = /Bidder \d{4}/.exec(html)![0];
    expect(shown).not.toBe(unkeyed);
  });

  it("listings: the public list names sellers by a handle, never by their user id", async () => {
    const seller = await createTestUser();
    const listing = await createTestListing(seller, { title: `Handle test ${Date.now()}` });
    const again = await createTestListing(seller, { title: `Handle test two ${Date.now()}` });
    const response = await new Browser().send("/api/vehicles?limit=50");
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(seller.id);
    const listings = JSON.parse(text) as Array<Record<string, unknown>>;
    const mine = listings.filter((l) => [listing.id, again.id].map(String).includes(String(l.id)));
    expect(mine).toHaveLength(2);
    for (const item of mine) {
      expect(item).not.toHaveProperty("userId");
      expect(item.seller).toMatch(/^seller-[0-9a-f]{12}$/);
    }
    expect(mine[0].seller).toBe(mine[1].seller);
  });
});
