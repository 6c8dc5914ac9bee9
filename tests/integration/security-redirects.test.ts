// The security suite (tests/support/security-app.ts), open redirects: returnTo / redirectTo variants
// (absolute, //, /\, encoded, javascript:, control characters) always land on this site, through
// /api/login, the sign-in callback and the form actions that go back to a page.
import { describe, expect, it } from "vitest";
import { createTestUser } from "../support/auth";
import { createTestLot } from "../support/lots";
import {
  Browser,
  browserFor,
  securityApp,
  signIn,
  startSecurityApp,
  unique,
} from "../support/security-app";

startSecurityApp();

describe("no open redirect through returnTo or redirectTo", () => {
  const ATTACKS = [
    "https://evil.example",
    "https://evil.example/path?x=1",
    "//evil.example",
    "//evil.example/%2F..",
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "%2F%2Fevil.example",
    "%252F%252Fevil.example",
    "/%5Cevil.example",
    "/%2F%2Fevil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    " //evil.example",
    "https:evil.example",
    "http:/evil.example",
    "javascript:alert(document.cookie)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "/.//evil.example",
  ];

  function expectOnSite(location: string | null, attack: string) {
    expect(location, attack).not.toBeNull();
    const target = new URL(location!, securityApp.url);
    expect(target.origin, `${attack} → ${location}`).toBe(securityApp.url);
    expect(location!.toLowerCase(), attack).not.toMatch(/^\s*(javascript|data):/);
    expect(location!, attack).not.toMatch(/^\s*(\/\/|\/\\|\\)/);
  }

  it("/api/login?returnTo=… keeps a signed-in person on this site", async () => {
    const browser = await browserFor(await createTestUser());
    for (const attack of ATTACKS) {
      const response = await browser.send(`/api/login?returnTo=${encodeURIComponent(attack)}`);
      expect(response.status, attack).toBe(302);
      expectOnSite(response.headers.get("location"), attack);
    }
    // A plain same-site path still works.
    const ok = await browser.send(`/api/login?returnTo=${encodeURIComponent("/deposit?x=1")}`);
    expect(ok.headers.get("location")).toBe("/deposit?x=1");
  });

  it("the sign-in callback never sends anyone to another site", async () => {
    for (const attack of ["//evil.example", "https://evil.example", "/\\evil.example"]) {
      const { callback } = await signIn(
        new Browser(),
        unique("returnto"),
        `?returnTo=${encodeURIComponent(attack)}`,
      );
      expect(callback.status).toBe(302);
      expect(callback.headers.get("location")).toBe("/");
    }
  });

  it("form actions that go back to a page stay on this site", async () => {
    const user = await createTestUser();
    const browser = await browserFor(user);
    const lot = await createTestLot();
    for (const attack of ATTACKS) {
      const banner = await browser.send("/api/beta-banner", { form: { redirectTo: attack } });
      expectOnSite(banner.headers.get("location"), attack);
      const watch = await browser.send(`/auctions/${lot.id}`, {
        form: { intent: "watch", redirectTo: attack },
      });
      expectOnSite(watch.headers.get("location"), attack);
    }
    const early = await new Browser().send("/api/prelaunch-signup", {
      form: { email: unique("redirect"), redirectTo: "//evil.example" },
    });
    expectOnSite(early.headers.get("location"), "prelaunch //evil.example");
  });

  it("targets with characters a header cannot carry are percent-encoded, not a 500", async () => {
    const browser = await browserFor(await createTestUser());
    const login = await browser.send(`/api/login?returnTo=${encodeURIComponent("/€")}`);
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/%E2%82%AC");
    const banner = await browser.send("/api/beta-banner", { form: { redirectTo: "/\u3000" } });
    expect(banner.status).toBe(303);
    expect(banner.headers.get("location")).toBe("/%E3%80%80");
    const accented = await browser.send("/api/beta-banner", {
      form: { redirectTo: "/community-vehicles?make=Citroën" },
    });
    expect(accented.headers.get("location")).toBe("/community-vehicles?make=Citro%C3%ABn");
  });
});
