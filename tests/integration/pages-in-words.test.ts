// The production build answering as a browser without JavaScript sees it (issue 42, findings 5
// and 8): the registration form posted as a page is checked there and then (400, its messages,
// no sign-in started: docs/decisions/3520), and every error page says in words what happened,
// with a Retry-After that is the rate limit's real wait (docs/decisions/3521).
import { createCookie } from "@remix-run/node";
import { QueryTypes } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalIssuer, type LocalIssuer } from "../../scripts/local-issuer";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { sessionCookie } from "~/http/cookies.server";
import { resetEnvForTests } from "~/platform/env.server";
import { consumeRateLimit, RATE_LIMITS, type RateLimitName } from "~/platform/rate-limit.server";
import { LOCAL_OIDC_CLIENT_ID, LOCAL_OIDC_CLIENT_SECRET } from "~/services/accounts/local-oidc";
import { ensureBuilt, startApp, waitFor200, type AppProcess } from "../support/app-process";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { freePort } from "../support/cluster";
import { throughIssuer } from "../support/oidc";
import { createTestListing } from "../support/listings";
import { createTestLot } from "../support/lots";

const SECRET = "pages-in-words-session-secret-0123456789abcdef";
let app: AppProcess;
let APP: string;
let issuer: LocalIssuer;

beforeAll(async () => {
  await ensureBuilt();
  const port = await freePort();
  APP = `http://localhost:${port}`;
  issuer = await startLocalIssuer({ redirectUris: [`${APP}/api/callback`] });
  resetEnvForTests();
  app = startApp(
    {
      NODE_ENV: "production",
      DATABASE_URL: process.env.DATABASE_URL!,
      SESSION_SECRET: SECRET,
      APP_URL: APP,
      OIDC_ISSUER: issuer.issuer,
      OIDC_CLIENT_ID: LOCAL_OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET: LOCAL_OIDC_CLIENT_SECRET,
      ALLOW_TEST_PAYMENTS: "true",
      FILE_STORAGE: "local",
      AUCTION_CLOSER: "off",
      HOUSEKEEPING: "off",
      // each browser below has its own address, told the way Fly's proxy tells it
      TRUST_PROXY: "fly",
    },
    port,
  );
  await waitFor200(`${APP}/healthz`, app);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await issuer?.stop();
});

let addressCounter = 0;

/** A browser without JavaScript: its own address, a cookie jar, same-origin form posts. */
class Browser {
  readonly jar = new Map<string, string>();
  readonly address = `203.0.113.${++addressCounter}`;
  readonly setCookies: string[] = [];

  async send(path: string, init: { form?: Record<string, string>; cookie?: string } = {}) {
    const headers = new Headers({ "fly-client-ip": this.address, accept: "text/html" });
    const cookie = init.cookie ?? [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    if (cookie) headers.set("cookie", cookie);
    let body: URLSearchParams | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form);
      headers.set("origin", APP);
    }
    const url = path.startsWith("http") ? path : `${APP}${path}`;
    const response = await fetch(url, {
      method: body ? "POST" : "GET",
      headers,
      body,
      redirect: "manual",
    });
    for (const header of response.headers.getSetCookie()) {
      this.setCookies.push(header);
      const [name, ...rest] = header.split(";")[0].split("=");
      this.jar.set(name.trim(), rest.join("="));
    }
    return response;
  }
}

/** The server signs cookies with SECRET; the test process's cookie module took its own. */
const serverSessionCookie = createCookie("__session", { secrets: [SECRET] });

async function browserFor(user: User) {
  const browser = new Browser();
  const token = await sessionCookie.parse(await sessionCookieFor(user));
  const [name, ...value] = (await serverSessionCookie.serialize(token)).split(";")[0].split("=");
  browser.jar.set(name, value.join("="));
  return browser;
}

/** What a person reads on a page: the text outside scripts and styles, entities decoded. */
function visibleText(html: string) {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, " ")
    .replace(/<style[\s\S]*?<\/style>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

/** The main part of an error page: the status, its title and its sentences. */
async function errorPageText(response: Response) {
  expect(response.headers.get("content-type")).toMatch(/text\/html/);
  const text = visibleText(await response.text());
  expect(text).not.toMatch(/\[object |undefined|null\b/);
  return text;
}

describe("the registration form posted as a page (finding 5)", () => {
  // The exact body of the finding: no terms ticked, a phone of markup, no names.
  const hostile = {
    from: "register",
    accountType: "buyer",
    firstName: "",
    lastName: "",
    login_hint: "hostile-probe@example.com",
    phone: "<b>abc</b>",
  };

  /** Where the page's registration form posts, as a browser reads it from the HTML. */
  async function registrationFormAction() {
    const page = await new Browser().send("/?register=1");
    const html = await page.text();
    const form = [...html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/g)]
      .map((match) => match[0])
      .find((markup) => markup.includes("Create Account"));
    expect(form, "the registration form is on the page").toBeTruthy();
    return /action="([^"]+)"/.exec(form!)![1];
  }

  it("answers 400 with the form and its messages, sets no login intent, starts no sign-in", async () => {
    const action = await registrationFormAction();
    const browser = new Browser();
    const answer = await browser.send(action, { form: hostile });
    expect(answer.headers.get("location")).toBeNull();
    expect(answer.status).toBe(400);
    const html = await answer.text();
    const text = visibleText(html);
    expect(text).toContain("Create your account");
    for (const message of [
      "Enter your first name.",
      "Enter your last name.",
      "Enter a phone number: digits, spaces, + ( ) - and . only.",
      "Agree to the Terms of Service and Privacy Policy.",
      "Please fill in every field and agree to the terms.",
    ]) {
      expect(text).toContain(message);
    }
    // what was typed is kept to correct, as text, never as markup
    expect(html).toContain('value="hostile-probe@example.com"');
    expect(html).toContain('value="&lt;b&gt;abc&lt;/b&gt;"');
    expect(html).not.toContain("<b>abc</b>");
    // no login intent, no sign-in state: nothing of a sign-in was started
    expect(browser.setCookies.filter((c) => /^__login_intent=|oidc|state/i.test(c))).toEqual([]);
  });

  it("the same body posted to /api/login starts no sign-in either", async () => {
    const browser = new Browser();
    const answer = await browser.send("/api/login", { form: hostile });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.headers.get("location")).toBeNull();
    expect(browser.setCookies.filter((c) => /^__login_intent=/.test(c))).toEqual([]);
    const text = await errorPageText(answer);
    expect(text).toContain("Not possible here");
  });

  it("filled in, the same form goes on to sign in with the names kept in the login intent", async () => {
    const browser = new Browser();
    const answer = await browser.send(await registrationFormAction(), {
      form: {
        ...hostile,
        firstName: "Rita",
        lastName: "Registered",
        phone: "713-555-0100",
        terms: "on",
      },
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toContain(issuer.issuer);
    expect(browser.setCookies.some((c) => c.startsWith("__login_intent="))).toBe(true);
  });
});

/** The whole sign-in of a new account, to the callback's answer. */
async function signInAtIssuer(browser: Browser, email: string) {
  const login = await browser.send("/api/login");
  expect(login.status).toBe(302);
  const callback = await throughIssuer(issuer, login.headers.get("location")!, {
    email,
    firstName: "Sam",
    lastName: "Limited",
  });
  return browser.send(callback);
}

/** Spends all but `left` of a limiter's points for `key`, as earlier requests would have. */
async function spend(name: RateLimitName, key: string, left = 0) {
  const request = new Request(`${APP}/`);
  for (let i = 0; i < RATE_LIMITS[name].points - left; i++) {
    await consumeRateLimit(request, name, key);
  }
}

/** Seconds until the limiter's window for `key` ends, read from its row. */
async function realWait(name: RateLimitName, key: string) {
  // rate-limiter-flexible keeps the window's end as epoch milliseconds
  const [row] = await sequelize.query<{ expire: string }>(
    "select expire::text as expire from rate_limits where key = $1",
    { bind: [`${name}:${key}`], type: QueryTypes.SELECT },
  );
  return Math.ceil((Number(row.expire) - Date.now()) / 1000);
}

async function expectRealWait(answer: Response, name: RateLimitName, key: string) {
  expect(answer.status).toBe(429);
  const said = Number(answer.headers.get("retry-after"));
  const wait = await realWait(name, key);
  // the window's end, seen a moment after the answer was written
  expect(
    Math.abs(said - wait),
    `Retry-After ${said}, the window ends in ${wait} s`,
  ).toBeLessThanOrEqual(2);
  // and never more than the window itself
  expect(said).toBeLessThanOrEqual(RATE_LIMITS[name].duration);
}

describe("error pages in words, and Retry-After the limit's real wait (finding 8)", () => {
  it("the sign-in callback's 429 (a JSON answer) reads as words, with the hour's wait", async () => {
    const browser = new Browser();
    await spend("signUp", browser.address);
    const callback = await signInAtIssuer(browser, `limited-${Date.now()}@example.com`);
    await expectRealWait(callback, "signUp", browser.address);
    // an hourly limit: far more than the minute the edge used to say
    expect(Number(callback.headers.get("retry-after"))).toBeGreaterThan(60);
    const text = await errorPageText(callback);
    expect(text).toContain("429 Too many requests");
    expect(text).toMatch(
      /You did this too many times in a short while\. You can try again in about (59|60) minutes\./,
    );
  });

  it("the contact form's 429 says the hourly limit's real wait", async () => {
    const browser = new Browser();
    await spend("contact", browser.address);
    const answer = await browser.send("/contact", {
      form: {
        name: "Pat",
        email: "pat@example.com",
        topic: "privacy",
        message: "Once more",
      },
    });
    await expectRealWait(answer, "contact", browser.address);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(60);
    const text = await errorPageText(answer);
    expect(text).toContain("429 Too many requests");
    expect(text).toMatch(/You can try again in about (59|60) minutes\./);
  });

  it("every other limiter's 429 page says its real wait", async () => {
    // sign-in: a minute per address
    const visitor = new Browser();
    await spend("signIn", visitor.address);
    const signIn = await visitor.send("/api/login");
    await expectRealWait(signIn, "signIn", visitor.address);
    expect(await errorPageText(signIn)).toContain("429 Too many requests");

    const user = await createTestUser({ verified: true, deposit: "2500.00" });
    const browser = await browserFor(user);

    // messages to sellers: an hour per person (a route with its own error page)
    const seller = await createTestUser();
    const listing = await createTestListing(seller);
    await spend("message", user.id);
    const message = await browser.send(`/messages/new?listing=${listing.id}`, {
      form: { body: "Is it still for sale?" },
    });
    await expectRealWait(message, "message", user.id);
    expect(Number(message.headers.get("retry-after"))).toBeGreaterThan(60);
    expect(await errorPageText(message)).toMatch(
      /429 Too many requests .*You can try again in about (59|60) minutes\./,
    );

    // uploads: ten minutes per person (the identity page)
    const unverified = await createTestUser();
    await spend("upload", unverified.id);
    const upload = await (
      await browserFor(unverified)
    ).send("/kyc-verification", { form: { documentType: "drivers_license" } });
    await expectRealWait(upload, "upload", unverified.id);
    expect(Number(upload.headers.get("retry-after"))).toBeGreaterThan(60);

    // payments: a minute per person (the deposit page)
    await spend("payment", user.id);
    const payment = await browser.send("/deposit", { form: { intent: "pay", amount: "500" } });
    await expectRealWait(payment, "payment", user.id);

    // bids by the lot page's form: a minute per person
    const lot = await createTestLot();
    await spend("bid", user.id);
    const bid = await browser.send(`/auctions/${lot.id}`, {
      form: { intent: "bid", amount: "500.00" },
    });
    await expectRealWait(bid, "bid", user.id);
    // ...and by the call, whose limit is counted inside the bid's one statement (record 1903)
    const bidCall = await fetch(`${APP}/api/bids`, {
      method: "POST",
      headers: {
        "fly-client-ip": browser.address,
        cookie: [...browser.jar].map(([k, v]) => `${k}=${v}`).join("; "),
        origin: APP,
        "content-type": "application/json",
      },
      body: JSON.stringify({ vehicleId: lot.id, amount: "500" }),
    });
    await expectRealWait(bidCall, "bid", user.id);

    // early access (a call): a minute per address
    const early = new Browser();
    await spend("earlyAccess", early.address);
    const call = await fetch(`${APP}/api/prelaunch-signup`, {
      method: "POST",
      headers: {
        "fly-client-ip": early.address,
        origin: APP,
        "content-type": "application/json",
      },
      body: JSON.stringify({ email: "early@example.com" }),
    });
    await expectRealWait(call, "earlyAccess", early.address);
  });

  it("a thrown text answer and an unknown address read as words", async () => {
    const missing = await new Browser().send("/no-such-page");
    expect(missing.status).toBe(404);
    expect(await errorPageText(missing)).toContain("Page Not Found");
    const badCallback = await new Browser().send("/api/callback?code=x&state=y");
    expect(badCallback.status).toBeGreaterThanOrEqual(400);
    expect(badCallback.status).toBeLessThan(500);
    const text = await errorPageText(badCallback);
    expect(text).toMatch(new RegExp(`^.*${badCallback.status} \\S`));
  });
});
