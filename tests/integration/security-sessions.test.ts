// The security suite (tests/support/security-app.ts), sessions: a new session id at every
// sign-in (the old cookie stops working), a planted cookie is never adopted, logout ends the
// session on the server.
import { describe, expect, it } from "vitest";
import { createTestUser } from "../support/auth";
import {
  Browser,
  browserFor,
  signIn,
  startSecurityApp,
  unique,
  whoIs,
} from "../support/security-app";

startSecurityApp();

describe("sessions", () => {
  it("a sign-in gives a new session id and the one from before stops working", async () => {
    const email = unique("renew");
    const browser = new Browser();
    await signIn(browser, email);
    const before = browser.jar.get("__session")!;
    expect(await whoIs(browser)).toBe(email);

    await signIn(browser, email);
    const after = browser.jar.get("__session")!;
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    expect(await whoIs(browser)).toBe(email);

    const stale = new Browser();
    stale.jar.set("__session", before);
    expect((await stale.send("/api/auth/user")).status).toBe(401);
    // A page with the old cookie is a visitor's page.
    const page = await stale.send("/deposit");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/api\/login\?returnTo=/);
  });

  it("signing in as someone else over a live session replaces it", async () => {
    const browser = await browserFor(await createTestUser());
    const first = browser.jar.get("__session")!;
    const email = unique("switch");
    await signIn(browser, email);
    expect(browser.jar.get("__session")).not.toBe(first);
    expect(await whoIs(browser)).toBe(email);
    const stale = new Browser();
    stale.jar.set("__session", first);
    expect((await stale.send("/api/auth/user")).status).toBe(401);
  });

  it("a planted session cookie is never adopted: the sign-in issues its own", async () => {
    const browser = new Browser();
    const planted = "planted-by-an-attacker";
    browser.jar.set("__session", planted);
    expect((await browser.send("/api/auth/user")).status).toBe(401);
    await signIn(browser, unique("planted"));
    expect(browser.jar.get("__session")).not.toBe(planted);
    const attacker = new Browser();
    attacker.jar.set("__session", planted);
    expect((await attacker.send("/api/auth/user")).status).toBe(401);
  });

  it("logout ends the session on the server, not just in the browser", async () => {
    const browser = await browserFor(await createTestUser());
    const token = browser.jar.get("__session")!;
    const out = await browser.send("/api/logout", { method: "POST" });
    expect(out.status).toBe(302);
    const replay = new Browser();
    replay.jar.set("__session", token);
    expect((await replay.send("/api/auth/user")).status).toBe(401);
  });
});
