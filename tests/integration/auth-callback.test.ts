// The sign-in round trip against the real local issuer, driven without a browser.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalIssuer, type LocalIssuer } from "../../scripts/local-issuer";
import { User } from "~/models/user.server";
import { loader as callbackLoader } from "~/routes/api.callback";
import { loader as loginLoader } from "~/routes/api.login";
import { loader as authUserLoader } from "~/routes/api.auth.user";
import { action as logoutAction } from "~/routes/api.logout";
import { getUser } from "~/services/accounts/session.server";
import { resetEnvForTests } from "~/platform/env.server";
import { createTestUser, requestAs } from "../support/auth";
import { responseOf } from "../support/http";
import { args } from "../support/routes";

const APP = "http://localhost:3000";
let issuer: LocalIssuer;

beforeAll(async () => {
  issuer = await startLocalIssuer({ redirectUris: [`${APP}/api/callback`] });
  process.env.LOCAL_OIDC_PORT = String(issuer.port);
  process.env.ADMIN_EMAILS = "boss-it@bidyard.test";
  resetEnvForTests();
});
afterAll(async () => {
  await issuer?.stop();
});

function cookiePairs(response: Response) {
  return response.headers.getSetCookie().map((c) => c.split(";")[0]);
}

/** Drives /api/login → issuer login form → back to the app; returns the callback request. */
async function throughIssuer(
  email: string,
  query = "",
  names: { firstName?: string; lastName?: string } = {},
  /** Cookies the browser still holds when it comes back (an older session). */
  cookie = "",
) {
  const login = await responseOf(loginLoader(args(new Request(`${APP}/api/login${query}`))));
  expect(login.status).toBe(302);
  const appCookies = cookiePairs(login).join("; ");
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: {
        ...(init.headers ?? {}),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
    });
    for (const pair of cookiePairs(response)) {
      const [name, ...rest] = pair.split("=");
      jar.set(name, rest.join("="));
    }
    return response;
  };
  let response = await send(login.headers.get("location")!);
  const interaction = new URL(response.headers.get("location")!, issuer.issuer).toString();
  const page = await send(interaction);
  const html = await page.text();
  response = await send(interaction, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      email,
      firstName: names.firstName ?? "",
      lastName: names.lastName ?? "",
    }),
  });
  expect(response.status).toBe(303);
  response = await send(new URL(response.headers.get("location")!, issuer.issuer).toString());
  const callbackUrl = response.headers.get("location")!;
  expect(callbackUrl.startsWith(`${APP}/api/callback?`)).toBe(true);
  const callback = () =>
    new Request(callbackUrl, {
      headers: { cookie: [appCookies, cookie].filter(Boolean).join("; ") },
    });
  return {
    callbackUrl,
    appCookies,
    callback,
    loginPage: html,
    authorize: login.headers.get("location")!,
  };
}

describe("sign-in through the local issuer", () => {
  it("creates the user from userinfo, starts a session and returns to returnTo", async () => {
    const email = `new-${Date.now()}@example.com`;
    const flow = await throughIssuer(email, "?returnTo=%2Fdeposit%3Fx%3D1&login_hint=" + email, {
      firstName: "Dana",
      lastName: "Driver",
    });
    const authorize = new URL(flow.authorize);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("login_hint")).toBe(email);
    expect(flow.loginPage).toContain(`value="${email}"`);

    const response = await responseOf(callbackLoader(args(flow.callback())));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/deposit?x=1");
    const setCookies = response.headers.getSetCookie();
    expect(setCookies.some((c) => c.startsWith("oauth2:") && c.includes("Max-Age=0"))).toBe(true);
    const session = setCookies.find((c) => c.startsWith("__session="))!.split(";")[0];

    const user = await User.findOne({ where: { email } });
    expect(user).toMatchObject({ firstName: "Dana", lastName: "Driver", role: "user" });
    expect(user!.oidcSubject).toMatch(/^local-/);
    const signedIn = await getUser(new Request(`${APP}/`, { headers: { cookie: session } }));
    expect(signedIn?.id).toBe(user!.id);

    const me = await authUserLoader(
      args(new Request(`${APP}/api/auth/user`, { headers: { cookie: session } })),
    );
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining([
        "id",
        "firstName",
        "lastName",
        "email",
        "role",
        "deposit",
        "verified",
        "createdAt",
      ]),
    );
    expect(body).toMatchObject({ email, firstName: "Dana", deposit: "0.00", verified: false });
  });

  it("claims a seeded account by e-mail and makes ADMIN_EMAILS admins", async () => {
    const seeded = await createTestUser({ email: "boss-it@bidyard.test", firstName: "Bo" });
    const flow = await throughIssuer("Boss-IT@bidyard.test");
    const response = await responseOf(callbackLoader(args(flow.callback())));
    expect(response.headers.get("location")).toBe("/");
    await seeded.reload();
    expect(seeded.role).toBe("admin");
    expect(seeded.oidcSubject).toMatch(/^local-/);
    expect(seeded.firstName).toBe("Bo");
    expect(await User.count({ where: { email: "boss-it@bidyard.test" } })).toBe(1);
  });

  it("refuses an e-mail already linked to another sign-in, changing nothing", async () => {
    const email = `linked-${Date.now()}@example.com`;
    const other = await createTestUser({ email, oidcSubject: "someone-else", firstName: "Orig" });
    const flow = await throughIssuer(email, "", { firstName: "Intruder" });
    const response = await responseOf(callbackLoader(args(flow.callback())));
    expect(response.status).toBe(409);
    expect(await response.text()).toMatch(/already exists/);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(false);
    await other.reload();
    expect(other).toMatchObject({ oidcSubject: "someone-else", firstName: "Orig" });
  });

  it("sends a NEW service provider to /affiliate-registration, an existing one to returnTo", async () => {
    const email = `provider-${Date.now()}@example.com`;
    const first = await throughIssuer(email, "?accountType=affiliate&returnTo=%2Fauctions");
    const created = await responseOf(callbackLoader(args(first.callback())));
    expect(created.headers.get("location")).toBe("/affiliate-registration");
    expect((await User.findOne({ where: { email } }))?.accountType).toBe("affiliate");

    const again = await throughIssuer(email, "?accountType=affiliate&returnTo=%2Fauctions");
    const returning = await responseOf(callbackLoader(args(again.callback())));
    expect(returning.headers.get("location")).toBe("/auctions");
  });

  it("never redirects to another site", async () => {
    const flow = await throughIssuer(
      `safe-${Date.now()}@example.com`,
      "?returnTo=%2F%2Fevil.example%2Fx",
    );
    const response = await responseOf(callbackLoader(args(flow.callback())));
    expect(response.headers.get("location")).toBe("/");
  });

  it("gives a new session id on every sign-in and ends the previous one", async () => {
    const email = `twice-${Date.now()}@example.com`;
    const one = await responseOf(callbackLoader(args((await throughIssuer(email)).callback())));
    const firstSession = one.headers
      .getSetCookie()
      .find((c) => c.startsWith("__session="))!
      .split(";")[0];
    const two = await responseOf(
      callbackLoader(args((await throughIssuer(email, "", {}, firstSession)).callback())),
    );
    const secondSession = two.headers
      .getSetCookie()
      .find((c) => c.startsWith("__session="))!
      .split(";")[0];
    expect(secondSession).not.toBe(firstSession);
    expect(await getUser(new Request(APP, { headers: { cookie: firstSession } }))).toBeNull();
    expect(await getUser(new Request(APP, { headers: { cookie: secondSession } }))).not.toBeNull();
  });

  it("answers 400 to a forged state and writes nothing", async () => {
    const email = `forged-${Date.now()}@example.com`;
    const flow = await throughIssuer(email);
    const url = new URL(flow.callbackUrl);
    url.searchParams.set("state", "forged-state-value");
    const response = await responseOf(
      callbackLoader(args(new Request(url, { headers: { cookie: flow.appCookies } }))),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/could not be verified/);
    expect(await User.count({ where: { email } })).toBe(0);
  });

  it("answers 400 to a callback without the state cookie (another browser)", async () => {
    const flow = await throughIssuer(`nocookie-${Date.now()}@example.com`);
    const response = await responseOf(callbackLoader(args(new Request(flow.callbackUrl))));
    expect(response.status).toBe(400);
  });

  it("answers 400 to a replayed code", async () => {
    const flow = await throughIssuer(`replay-${Date.now()}@example.com`);
    const first = await responseOf(callbackLoader(args(flow.callback())));
    expect(first.status).toBe(302);
    const replay = await responseOf(callbackLoader(args(flow.callback())));
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/already been used/);
  });

  it("answers 400 when the issuer reports an error", async () => {
    const flow = await throughIssuer(`denied-${Date.now()}@example.com`);
    const url = new URL(flow.callbackUrl);
    url.searchParams.delete("code");
    url.searchParams.set("error", "access_denied");
    const response = await responseOf(
      callbackLoader(args(new Request(url, { headers: { cookie: flow.appCookies } }))),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/cancelled/);
  });

  it("answers 400 to a callback with no state at all", async () => {
    const response = await responseOf(
      callbackLoader(args(new Request(`${APP}/api/callback?code=abc`))),
    );
    expect(response.status).toBe(400);
  });
});

describe("the session endpoints", () => {
  it("GET /api/auth/user answers 401 to a visitor", async () => {
    const response = await authUserLoader(args(await requestAs(null, "/api/auth/user")));
    expect(response.status).toBe(401);
  });

  it("logout ends the session on the server; a cross-origin logout is refused", async () => {
    const user = await createTestUser();
    const request = await requestAs(user, "/api/logout", { method: "POST" });
    const forged = new Request(request.url, {
      method: "POST",
      headers: new Headers(request.headers),
    });
    forged.headers.set("Origin", "https://evil.example");
    expect((await responseOf(logoutAction(args(forged)))).status).toBe(403);
    expect(await getUser(request)).not.toBeNull();

    const response = await responseOf(logoutAction(args(request)));
    expect(response.status).toBe(302);
    expect(
      response.headers
        .getSetCookie()
        .some((c) => c.startsWith("__session=;") || c.includes("Max-Age=0")),
    ).toBe(true);
    expect(await getUser(request)).toBeNull();
  });
});
