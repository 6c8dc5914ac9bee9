// The security suite (tests/support/security-app.ts), Content-Security-Policy: on every page, a
// fresh nonce per request, every <script> in the HTML carries it, no 'unsafe-inline' (or
// 'unsafe-eval') for scripts, plus the other headers.
import { describe, expect, it } from "vitest";
import { createTestUser } from "../support/auth";
import { Browser, browserFor, startSecurityApp } from "../support/security-app";

startSecurityApp();

describe("Content-Security-Policy with a per-request nonce", () => {
  const scriptTags = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  const nonceOf = (csp: string) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];

  it("is enforced on pages (visitor, signed in, error), a new nonce every time", async () => {
    const user = await createTestUser();
    const signedIn = await browserFor(user);
    const nonces = new Set<string>();
    const pages: Array<[Browser, string, number]> = [
      [new Browser(), "/", 200],
      [new Browser(), "/", 200],
      [signedIn, "/auctions", 200],
      [new Browser(), "/community-vehicles", 200],
      [signedIn, "/deposit", 200],
      [signedIn, "/kyc-verification", 200],
      [new Browser(), "/no-such-page", 404],
    ];
    for (const [browser, pathname, status] of pages) {
      const response = await browser.send(pathname);
      expect(response.status, pathname).toBe(status);
      expect(response.headers.get("content-security-policy-report-only")).toBeNull();
      const csp = response.headers.get("content-security-policy") ?? "";
      const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
      // No inline or eval, no bare * or scheme-wide source ("https:", "data:").
      expect(scriptSrc, pathname).not.toMatch(/'unsafe-inline'|'unsafe-eval'|'unsafe-hashes'/);
      expect(scriptSrc.split(/\s+/), pathname).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/^(\*|https?:|data:|blob:)$/)]),
      );
      expect(csp).toMatch(/object-src 'none'/);
      expect(csp).toMatch(/base-uri 'self'/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      const nonce = nonceOf(scriptSrc);
      expect(nonce, pathname).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
      nonces.add(nonce!);
      const html = await response.text();
      const tags = scriptTags(html);
      expect(tags.length, pathname).toBeGreaterThan(0);
      for (const tag of tags) expect(tag, pathname).toContain(`nonce="${nonce}"`);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
    }
    expect(nonces.size).toBe(pages.length);
  });
});
