// The security suite (tests/support/security-app.ts), rate limits: 429 with a clear message and
// Retry-After on sign-in, sign-up (new accounts at the sign-in callback, early-access signups),
// bids (call and form), uploads (KYC page, upload URLs, listing photos, affiliate document).
import { describe, expect, it } from "vitest";
import { consumeRateLimit, RATE_LIMITS } from "~/platform/rate-limit.server";
import { createTestUser } from "../support/auth";
import { JPEG_BYTES, PDF_BYTES } from "../support/kyc-files";
import { createTestLot } from "../support/lots";
import {
  Browser,
  browserFor,
  jpegPhoto,
  securityApp,
  signIn,
  startSecurityApp,
  storedFiles,
  TOO_MANY,
  unique,
} from "../support/security-app";
import { count } from "../support/sql";

startSecurityApp();

describe("rate limits answer 429 with a clear message", () => {
  async function until429(send: () => Promise<Response>, limit: number) {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i <= limit; i++) {
      last = await send();
      statuses.push(last.status);
    }
    expect(statuses.slice(0, limit).every((status) => status !== 429)).toBe(true);
    expect(statuses[limit]).toBe(429);
    return last!;
  }

  async function expectJson429(response: Response) {
    expect(response.status).toBe(429);
    const body = (await response.json()) as { message: string; retryAfter: number };
    expect(body.message).toBe(TOO_MANY);
    expect(body.retryAfter).toBeGreaterThan(0);
  }

  async function expectPage429(response: Response) {
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await response.text()).toContain(TOO_MANY);
  }

  it(`sign-in: the ${RATE_LIMITS.signIn.points + 1}st start from one address`, async () => {
    const browser = new Browser();
    const last = await until429(() => browser.send("/api/login"), RATE_LIMITS.signIn.points);
    await expectPage429(last);
    // Another address is not affected.
    expect((await new Browser().send("/api/login")).status).toBe(302);
  });

  it("sign-up: a new account past the address's limit is refused, an existing one signs in", async () => {
    const browser = new Browser();
    const existing = unique("existing");
    await signIn(browser, existing);
    const spend = new Request(`${securityApp.url}/`, {
      headers: { "fly-client-ip": browser.address },
    });
    for (let i = 0; i < RATE_LIMITS.signUp.points - 1; i++) {
      await consumeRateLimit(spend, "signUp", browser.address);
    }
    const email = unique("one-too-many");
    const { callback } = await signIn(browser, email);
    await expectPage429(callback);
    expect(await count("select count(*) n from users where email = $1", [email])).toBe(0);
    // The limit is on new accounts only.
    const again = await signIn(browser, existing);
    expect(again.callback.status).toBe(302);
  });

  it("early-access signup: the 6th in a minute from one address", async () => {
    const browser = new Browser();
    let n = 0;
    const last = await until429(
      () => browser.send("/api/prelaunch-signup", { json: { email: unique(`early${n++}`) } }),
      RATE_LIMITS.earlyAccess.points,
    );
    await expectJson429(last);
    expect(
      await count("select count(*) n from prelaunch_signups where email like 'early5-%'"),
    ).toBe(0);
  });

  it("bids: the call and the form share one budget per person", async () => {
    const user = await createTestUser({ verified: true, deposit: "2500.00" });
    const browser = await browserFor(user);
    const lot = await createTestLot();
    const last = await until429(
      () => browser.send("/api/bids", { json: { vehicleId: Number(lot.id), amount: "1" } }),
      RATE_LIMITS.bid.points,
    );
    await expectJson429(last);
    const form = await browser.send(`/auctions/${lot.id}`, {
      form: { amount: "100", redirectTo: `/auctions/${lot.id}` },
    });
    await expectPage429(form);
    expect(await count("select count(*) n from bids where user_id = $1", [user.id])).toBe(0);
    // Someone else still bids.
    const other = await browserFor(await createTestUser({ verified: true, deposit: "2500.00" }));
    expect(
      (await other.send("/api/bids", { json: { vehicleId: Number(lot.id), amount: "100" } }))
        .status,
    ).toBe(201);
  });

  it("uploads: upload URLs, the KYC form, listing photos and the affiliate document share a budget", async () => {
    const user = await createTestUser();
    const browser = await browserFor(user);
    const last = await until429(
      () => browser.send("/api/objects/upload", { json: { size: 10, contentType: "image/jpeg" } }),
      RATE_LIMITS.upload.points,
    );
    await expectJson429(last);
    const files = storedFiles();
    const kyc = new FormData();
    kyc.set("documentType", "license");
    kyc.set("file", new File([JPEG_BYTES], "id.jpg", { type: "image/jpeg" }));
    await expectPage429(await browser.send("/kyc-verification", { body: kyc }));
    const listing = new FormData();
    for (const [key, value] of Object.entries({
      title: "Rate limited",
      make: "Jeep",
      model: "X",
      year: "2017",
      price: "100",
      condition: "good",
      city: "Austin",
    }))
      listing.set(key, value);
    listing.append(
      "photos",
      new File([await jpegPhoto(64, 48)], "car.jpg", { type: "image/jpeg" }),
    );
    await expectPage429(await browser.send("/post-vehicle", { body: listing }));
    const affiliate = new FormData();
    affiliate.set("companyName", "Limited Haulers");
    affiliate.set(
      "licenseDocument",
      new File([PDF_BYTES], "licence.pdf", { type: "application/pdf" }),
    );
    await expectPage429(await browser.send("/affiliate-registration", { body: affiliate }));
    expect(storedFiles()).toEqual(files);
    expect(await count("select count(*) n from kyc_documents where user_id = $1", [user.id])).toBe(
      0,
    );
    expect(await count("select count(*) n from listings where user_id = $1", [user.id])).toBe(0);
  });
});
