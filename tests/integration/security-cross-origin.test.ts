// The security suite (tests/support/security-app.ts), cross-origin writes: a sample of page actions
// and /api calls from another Origin (or a "null" Origin, or only a foreign Referer) are refused
// and write nothing; same-origin works. Every one answers 403: the server refuses them before
// Remix (server/edge.ts), and the app's own check (requireSameOrigin) refuses them again behind it.
import { describe, expect, it } from "vitest";
import { Notification } from "~/models/notification.server";
import { createTestUser } from "../support/auth";
import { JPEG_BYTES } from "../support/kyc-files";
import { createTestLot } from "../support/lots";
import {
  browserFor,
  EVIL,
  startSecurityApp,
  storedFiles,
  unique,
  whoIs,
  type SendInit,
} from "../support/security-app";
import { count } from "../support/sql";

startSecurityApp();

describe("cross-origin writes are refused", () => {
  it("page actions from another origin: 403 and nothing written; same-origin works", async () => {
    const user = await createTestUser({ verified: true, deposit: "2500.00" });
    const browser = await browserFor(user);
    const lot = await createTestLot();
    const note = await Notification.create({
      userId: user.id,
      kind: "test",
      title: "Unread note",
      body: "",
      link: null,
      readAt: null,
    });
    // The server refuses a cross-origin post before Remix (server/edge.ts): a clear 403 that says
    // nothing of the page and writes nothing.
    const forged = async (pathname: string, init: SendInit) => {
      const response = await browser.send(pathname, { origin: EVIL, ...init });
      expect(response.status, pathname).toBe(403);
      const text = await response.text();
      expect(text, pathname).toMatch(/Cross-origin request refused/);
      expect(text, pathname).not.toMatch(/<html|Unread note/);
    };
    await forged("/notifications", { form: {} });
    await forged("/deposit", { form: { intent: "pay", amount: "500" } });
    await forged(`/auctions/${lot.id}`, { form: { amount: "100", redirectTo: "/" } });
    await forged("/post-vehicle", {
      form: { title: "Forged", make: "Jeep", model: "X", year: "2017", price: "1" },
    });
    const kycForm = new FormData();
    kycForm.set("documentType", "license");
    kycForm.set("file", new File([JPEG_BYTES], "id.jpg", { type: "image/jpeg" }));
    await forged("/kyc-verification", { body: kycForm });
    await forged(`/service-orders/1`, { form: { intent: "claim" } });
    // A "null" Origin (sandboxed frame, data: URL) too; a foreign Referer alone gets our 403.
    await forged("/notifications", { form: {}, origin: "null" });
    const logout = await browser.send("/api/logout", { method: "POST", origin: EVIL });
    expect(logout.status).toBe(403);
    expect(await logout.json()).toMatchObject({ message: "Cross-origin request refused" });
    const byReferer = await browser.send("/notifications", {
      form: {},
      origin: null,
      headers: { referer: `${EVIL}/page` },
    });
    expect(byReferer.status).toBe(403);
    // Our own Origin, but not the host the post came to (a proxy's X-Forwarded-Host says another):
    // Remix refuses such a page post with a bare 500; the server answers it as cross-origin.
    for (const pathname of ["/notifications", "/post-vehicle"]) {
      const elsewhere = await browser.send(pathname, {
        form: {},
        headers: { "x-forwarded-host": "elsewhere.example" },
      });
      expect(elsewhere.status, pathname).toBe(403);
      expect(await elsewhere.text(), pathname).toMatch(/Cross-origin request refused/);
    }
    const unreadable = await browser.send("/notifications", { form: {}, origin: "http://[x" });
    expect(unreadable.status).toBe(403);

    await note.reload();
    expect(note.readAt).toBeNull();
    expect(await count("select count(*) n from payment_orders where user_id = $1", [user.id])).toBe(
      0,
    );
    expect(await count("select count(*) n from bids where user_id = $1", [user.id])).toBe(0);
    expect(await count("select count(*) n from listings where user_id = $1", [user.id])).toBe(0);
    expect(await count("select count(*) n from uploads where user_id = $1", [user.id])).toBe(0);
    expect(await whoIs(browser)).toBe(user.email);

    // The same posts from our own pages work.
    const read = await browser.send("/notifications", { form: {} });
    expect(read.status).toBe(302);
    await note.reload();
    expect(note.readAt).not.toBeNull();
    const bid = await browser.send(`/auctions/${lot.id}`, {
      form: { amount: "100", redirectTo: `/auctions/${lot.id}` },
    });
    expect(bid.status).toBe(302);
    expect(await count("select count(*) n from bids where user_id = $1", [user.id])).toBe(1);
  });

  it("/api calls from another origin: 403 and nothing written; same-origin works", async () => {
    const user = await createTestUser({ verified: true, deposit: "2500.00" });
    const browser = await browserFor(user);
    const lot = await createTestLot();
    const email = unique("early");
    const calls: Array<[string, SendInit]> = [
      ["/api/bids", { json: { vehicleId: Number(lot.id), amount: "100", isProxyBid: false } }],
      ["/api/prelaunch-signup", { json: { email } }],
      ["/api/objects/upload", { json: { size: 100, contentType: "image/jpeg" } }],
      ["/api/kyc/documents", { json: { documentType: "license", documentUrl: "/objects/kyc/x" } }],
      [
        "/api/affiliates",
        {
          json: {
            companyName: "Forged Haulers",
            serviceTypes: ["shipping"],
            businessPhone: "555-0100",
            businessEmail: "forged@example.com",
            serviceAreas: ["TX"],
          },
        },
      ],
      ["/api/membership/start-trial", { json: {} }],
    ];
    for (const [pathname, init] of calls) {
      const response = await browser.send(pathname, { ...init, origin: EVIL });
      expect(response.status, pathname).toBe(403);
      expect(await response.json()).toMatchObject({ error: "Cross-origin request refused" });
    }
    expect(await count("select count(*) n from bids where user_id = $1", [user.id])).toBe(0);
    expect(await count("select count(*) n from prelaunch_signups where email = $1", [email])).toBe(
      0,
    );
    expect(await count("select count(*) n from uploads where user_id = $1", [user.id])).toBe(0);
    expect(
      await count("select count(*) n from affiliate_applications where user_id = $1", [user.id]),
    ).toBe(0);
    expect(
      await count("select count(*) n from membership_trials where user_id = $1", [user.id]),
    ).toBe(0);

    const bid = await browser.send("/api/bids", calls[0][1]);
    expect(bid.status).toBe(201);
    const signup = await browser.send("/api/prelaunch-signup", calls[1][1]);
    expect(signup.status).toBe(201);
    expect(await count("select count(*) n from bids where user_id = $1", [user.id])).toBe(1);
    expect(await count("select count(*) n from prelaunch_signups where email = $1", [email])).toBe(
      1,
    );
  });

  it("the storage route takes no cross-origin PUT, even with a valid signed URL", async () => {
    const browser = await browserFor(await createTestUser());
    const issued = await browser.send("/api/objects/upload", {
      json: { size: JPEG_BYTES.byteLength, contentType: "image/jpeg" },
    });
    const { uploadURL } = (await issued.json()) as { uploadURL: string };
    const put = await browser.send(uploadURL, {
      method: "PUT",
      body: JPEG_BYTES,
      headers: { "content-type": "image/jpeg" },
      origin: EVIL,
    });
    expect(put.status).toBe(403);
    expect(storedFiles().filter((f) => uploadURL.includes(f.split(".")[0]))).toEqual([]);
  });
});
