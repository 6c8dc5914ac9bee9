// The security suite (tests/support/security-app.ts), cookies: every cookie the app sets (session,
// toast, sign-in state and intent, the just-signed-in marker, the beta banner's close) is
// HttpOnly, SameSite=Lax, Secure in production, Path=/ (or the narrower /api/callback for the
// sign-in flow's own cookies).
import { describe, expect, it } from "vitest";
import { Browser, signIn, startSecurityApp, unique } from "../support/security-app";

startSecurityApp();

/** The parsed attributes of a Set-Cookie header (names lower-cased). */
function cookieAttributes(header: string) {
  const [pair, ...parts] = header.split(";").map((part) => part.trim());
  const attributes = new Map<string, string>();
  for (const part of parts) {
    const [key, ...value] = part.split("=");
    attributes.set(key.toLowerCase(), value.join("="));
  }
  return { name: pair.split("=")[0], attributes };
}

function expectHardenedCookie(header: string, paths = ["/"]) {
  const { name, attributes } = cookieAttributes(header);
  expect(attributes.has("httponly"), `${name} HttpOnly: ${header}`).toBe(true);
  expect(attributes.get("samesite")?.toLowerCase(), `${name} SameSite: ${header}`).toBe("lax");
  expect(attributes.has("secure"), `${name} Secure: ${header}`).toBe(true);
  expect(paths, `${name} Path: ${header}`).toContain(attributes.get("path"));
}

describe("cookie flags in production", () => {
  it("every cookie of a sign-in, a toast and a logout is HttpOnly, SameSite=Lax, Secure", async () => {
    const browser = new Browser();
    const { login, callback } = await signIn(browser, unique("flags"), "?returnTo=%2Fdeposit");
    const loginCookies = login.headers.getSetCookie();
    const callbackCookies = callback.headers.getSetCookie();
    // The sign-in flow's own cookies: state/PKCE (oauth2:*) and the login intent.
    expect(loginCookies.map((c) => cookieAttributes(c).name)).toEqual(
      expect.arrayContaining(["__login_intent", expect.stringMatching(/^oauth2/)]),
    );
    expect(callbackCookies.map((c) => cookieAttributes(c).name)).toEqual(
      expect.arrayContaining(["__session", "__toast", "bidyard_signed_in"]),
    );
    const session = callbackCookies.find((c) => c.startsWith("__session="))!;
    expectHardenedCookie(session, ["/"]);
    expect(cookieAttributes(session).attributes.get("max-age")).toBe(String(60 * 60 * 24 * 30));

    // The next page reads (and clears) the toast and the just-signed-in marker.
    const page = await browser.send(callback.headers.get("location")!);
    expect(page.status).toBe(200);
    const cleared = page.headers.getSetCookie().map((c) => cookieAttributes(c).name);
    expect(cleared).toEqual(expect.arrayContaining(["__toast", "bidyard_signed_in"]));

    const logout = await browser.send("/api/logout", { method: "POST" });
    expect(logout.headers.getSetCookie().some((c) => c.startsWith("__session=;"))).toBe(true);

    for (const header of browser.setCookies) {
      expectHardenedCookie(header, ["/", "/api/callback"]);
    }
    expect(browser.setCookies.length).toBeGreaterThanOrEqual(9);
  });

  it("the beta banner's close cookie, with and without JavaScript, is hardened too", async () => {
    const browser = new Browser();
    const form = await browser.send("/api/beta-banner", { form: { redirectTo: "/auctions" } });
    expect(form.status).toBe(303);
    const script = await browser.send("/api/beta-banner", {
      method: "POST",
      headers: { accept: "application/json" },
    });
    expect(script.status).toBe(204);
    for (const response of [form, script]) {
      const [header] = response.headers.getSetCookie();
      expect(header).toMatch(/^beta_banner_closed=true;/);
      expectHardenedCookie(header);
    }
    const home = await (await browser.send("/")).text();
    expect(home).not.toContain("BETA VERSION");
  });
});
