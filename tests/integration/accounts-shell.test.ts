import { describe, expect, it } from "vitest";
import { PrelaunchSignup } from "~/models/user.server";
import { loader as adminStatsLoader } from "~/routes/api.admin.stats";
import { action as betaBannerAction } from "~/routes/api.beta-banner";
import { action as signupAction } from "~/routes/api.prelaunch-signup";
import { loader as indexLoader } from "~/routes/_index";
import { loader as rootLoader } from "~/root";
import { toastCookie } from "~/http/cookies.server";
import { createTestUser, requestAs } from "../support/auth";
import { responseOf } from "../support/http";
import { args } from "../support/routes";

let address = 0;

/** A request from its own client address, so the early-access rate limit is per test. */
async function signupRequest(init: Parameters<typeof requestAs>[2]) {
  const request = await requestAs(null, "/api/prelaunch-signup", init);
  address += 1;
  request.headers.set("fly-client-ip", `10.0.0.${address}`);
  return request;
}

async function flashOf(response: Response) {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__toast="));
  return toastCookie.parse(cookie!.split(";")[0]);
}

describe("POST /api/prelaunch-signup", () => {
  it("stores a JSON signup once; the same e-mail again gets a friendly answer", async () => {
    const email = `early-${Date.now()}@example.com`;
    const first = await responseOf(
      signupAction(
        args(await signupRequest({ json: { email, firstName: " Erin ", lastName: "" } })),
      ),
    );
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ ok: true, alreadyJoined: false });
    const again = await responseOf(
      signupAction(args(await signupRequest({ json: { email: email.toUpperCase() } }))),
    );
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ ok: true, alreadyJoined: true });
    const rows = await PrelaunchSignup.findAll({ where: { email } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ firstName: "Erin", lastName: null, source: "website" });
  });

  it("answers 400 with the field message to a missing or bad e-mail, storing nothing", async () => {
    const before = await PrelaunchSignup.count();
    const missing = await responseOf(
      signupAction(args(await signupRequest({ json: { firstName: "A" } }))),
    );
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe("Email is required");
    const bad = await responseOf(
      signupAction(args(await signupRequest({ json: { email: "nope@" } }))),
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      message: "Please enter a valid email address",
      fieldErrors: { email: "Please enter a valid email address" },
    });
    const notJson = await signupRequest({
      method: "POST",
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect((await responseOf(signupAction(args(notJson)))).status).toBe(400);
    expect(await PrelaunchSignup.count()).toBe(before);
  });

  it("takes a plain form and redirects back with a flash toast; errors reopen the form", async () => {
    const email = `form-${Date.now()}@example.com`;
    const ok = await responseOf(
      signupAction(args(await signupRequest({ form: { email, redirectTo: "/membership?x=1" } }))),
    );
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/membership?x=1");
    expect(await flashOf(ok)).toMatchObject({
      title: "Success!",
      description: "You've been added to our early access list",
    });

    const bad = await responseOf(
      signupAction(
        args(await signupRequest({ form: { email: "bad", redirectTo: "//evil.example" } })),
      ),
    );
    expect(bad.status).toBe(303);
    expect(bad.headers.get("location")).toBe("/?early-access=1");
    expect(await flashOf(bad)).toMatchObject({
      title: "Error",
      description: "Please enter a valid email address",
      type: "error",
    });
  });

  it("pretends to accept a filled honeypot and stores nothing", async () => {
    const email = `bot-${Date.now()}@example.com`;
    const json = await responseOf(
      signupAction(args(await signupRequest({ json: { email, website: "http://spam" } }))),
    );
    expect(json.status).toBe(201);
    const form = await responseOf(
      signupAction(args(await signupRequest({ form: { email, website: "x" } }))),
    );
    expect(form.status).toBe(303);
    expect(await PrelaunchSignup.count({ where: { email } })).toBe(0);
  });

  it("limits a client address to 5 signups a minute", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const request = await requestAs(null, "/api/prelaunch-signup", {
        json: { email: `limit-${i}-${Date.now()}@example.com` },
      });
      request.headers.set("fly-client-ip", "10.9.9.9");
      statuses.push((await responseOf(signupAction(args(request)))).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it("refuses a cross-origin post", async () => {
    const request = await signupRequest({ json: { email: `x-${Date.now()}@example.com` } });
    request.headers.set("Origin", "https://evil.example");
    expect((await responseOf(signupAction(args(request)))).status).toBe(403);
  });
});

describe("the shell's server side", () => {
  it("closing the beta banner without JS sets the cookie the root loader reads", async () => {
    const response = await responseOf(
      betaBannerAction(
        args(await requestAs(null, "/api/beta-banner", { form: { redirectTo: "/auctions" } })),
      ),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/auctions");
    const cookie = response.headers.get("set-cookie")!.split(";")[0];
    expect(cookie).toBe("beta_banner_closed=true");

    const open = await rootLoader(args(await requestAs(null, "/")));
    expect(open.data.betaBannerClosed).toBe(false);
    const closed = await rootLoader(
      args(new Request("http://localhost:3000/", { headers: { cookie } })),
    );
    expect(closed.data.betaBannerClosed).toBe(true);
  });

  it("the dashboard loader counts active bids and gives the buying power for a signed-in user", async () => {
    const user = await createTestUser();
    expect(await indexLoader(args(await requestAs(user, "/")))).toMatchObject({
      activeBids: 0,
      available: "0.00",
      // where the ID stands and whether bidding is open: the one answer (record 2704)
      identity: { state: "none", label: "Not started" },
      eligibility: { canBid: false, label: "Minimum Deposit Required: add $400.00" },
    });
  });

  it("GET /api/admin/stats: 403 for a buyer, counts for an admin", async () => {
    const buyer = await createTestUser({ verified: true });
    const admin = await createTestUser({ role: "admin" });
    expect(
      (await responseOf(adminStatsLoader(args(await requestAs(buyer, "/api/admin/stats"))))).status,
    ).toBe(403);
    expect(
      (await responseOf(adminStatsLoader(args(await requestAs(null, "/api/admin/stats"))))).status,
    ).toBe(401);
    const response = await responseOf(
      adminStatsLoader(args(await requestAs(admin, "/api/admin/stats"))),
    );
    expect(response.status).toBe(200);
    const stats = await response.json();
    expect(stats.totalUsers).toBeGreaterThanOrEqual(2);
    expect(stats.verifiedUsers).toBeGreaterThanOrEqual(1);
    expect(stats.pendingKyc).toBe(0);
    expect(typeof stats.earlyAccess).toBe("number");
  });
});
