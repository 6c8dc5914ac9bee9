// BidYard's security suite: one file that tells the story. It starts the PRODUCTION build
// (NODE_ENV=production, remix-serve, this file's own database, a real local OpenID issuer, the
// filesystem storage in a temporary folder) and drives it over HTTP the way a browser or an
// attacker would. Feature files test the same rules closer to the code; this one checks the
// assembled server. It covers:
//
//   1. Sessions: a new session id at every sign-in (the old cookie stops working), a planted
//      cookie is never adopted, logout ends the session on the server.
//   2. Cookies: every cookie the app sets (session, toast, sign-in state and intent, the
//      just-signed-in marker, the beta banner's close) is HttpOnly, SameSite=Lax, Secure in
//      production, Path=/ (or the narrower /api/callback for the sign-in flow's own cookies).
//   3. Content-Security-Policy: on every page, a fresh nonce per request, every <script> in the
//      HTML carries it, no 'unsafe-inline' (or 'unsafe-eval') for scripts, plus the other headers.
//   4. Cross-origin writes: a sample of page actions and /api calls from another Origin (or a
//      "null" Origin, or only a foreign Referer) are refused and write nothing; same-origin works.
//      Every one answers 403: the server refuses them before Remix (server/edge.ts), and the app's
//      own check (requireSameOrigin) refuses them again behind it.
//   5. Open redirects: returnTo / redirectTo variants (absolute, //, /\, encoded, javascript:,
//      control characters) always land on this site, through /api/login, the sign-in callback
//      and the form actions that go back to a page.
//   6. Guessing ids: another user's KYC documents, deposit orders and ledger, service orders,
//      listing edits, notifications and bids answer 404/403 (or show nothing of theirs).
//   7. Rate limits: 429 with a clear message and Retry-After on sign-in, sign-up (new accounts
//      at the sign-in callback, early-access signups), bids (call and form), uploads (KYC page,
//      upload URLs, listing photos, affiliate document).
//   8. Upload attacks: polyglots (JPEG header + HTML, a real JPEG with a script after it, a PDF
//      with JavaScript, hex-escaped too), SVG, a text file declared as JPEG, oversized, empty and
//      path-traversal names, by the no-JS form, by the upload URL and for listing photos: refused
//      with a message, nothing left in storage, no record kept. Genuine files still pass.
//   9. Dependencies: `npm audit` cannot reach an advisory service here
//      (docs/decisions/0901-dependency-audit.md): production dependencies are pinned exactly and
//      locked with integrity hashes instead.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import sharp from "sharp";
import { QueryTypes } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalIssuer, type LocalIssuer } from "../../scripts/local-issuer";
import { sequelize } from "~/models/db.server";
import { Notification } from "~/models/notification.server";
import type { User } from "~/models/user.server";
import { consumeRateLimit, RATE_LIMITS } from "~/platform/rate-limit.server";
import { sessionCookie } from "~/http/cookies.server";
import { resetEnvForTests } from "~/platform/env.server";
import { LOCAL_OIDC_CLIENT_ID, LOCAL_OIDC_CLIENT_SECRET } from "~/services/accounts/local-oidc";
import { createAdmin, createAffiliate, createTestOrder } from "../support/affiliates";
import { ensureBuilt, startApp, waitFor200, type AppProcess } from "../support/app-process";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { freePort } from "../support/cluster";
import { JPEG_BYTES, PDF_BYTES, PNG_BYTES } from "../support/kyc-files";
import { createTestListing } from "../support/listings";
import { createTestLot } from "../support/lots";

const SECRET = "security-suite-session-secret-0123456789abcdef";
const EVIL = "https://evil.example";
const TOO_MANY = "Too many requests. Please wait a moment and try again.";

let app: AppProcess;
let APP: string;
let issuer: LocalIssuer;
let uploadsDir: string;

beforeAll(async () => {
  await ensureBuilt();
  const port = await freePort();
  APP = `http://localhost:${port}`;
  issuer = await startLocalIssuer({ redirectUris: [`${APP}/api/callback`] });
  uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "bidyard-security-"));
  process.env.UPLOADS_DIR = uploadsDir;
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
      // uploads on this machine's disk, in the suite's own folder (docs/decisions/3105)
      FILE_STORAGE: "local",
      UPLOADS_DIR: uploadsDir,
      // The suite's browsers each have their own address, told the way Fly's proxy tells it.
      TRUST_PROXY: "fly",
    },
    port,
  );
  await waitFor200(`${APP}/healthz`, app);
}, 120_000);

afterAll(async () => {
  if (process.env.SECURITY_DEBUG) console.log(app?.output());
  await app?.stop();
  await issuer?.stop();
  if (uploadsDir) fs.rmSync(uploadsDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// A small browser: a cookie jar, its own client address (the rate limits' key), same-origin
// writes unless told otherwise, redirects not followed.

let addressCounter = 0;

type SendInit = Omit<RequestInit, "body"> & {
  json?: unknown;
  form?: Record<string, string>;
  body?: BodyInit;
  /** The Origin header for a write (default: the app's own); null sends none. */
  origin?: string | null;
};

class Browser {
  readonly jar = new Map<string, string>();
  readonly address = `198.51.100.${++addressCounter}`;
  /** Every Set-Cookie header this browser has received. */
  readonly setCookies: string[] = [];

  cookie() {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  remember(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      this.setCookies.push(header);
      const [pair, ...attributes] = header.split(";");
      const [name, ...rest] = pair.split("=");
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired) this.jar.delete(name.trim());
      else this.jar.set(name.trim(), rest.join("="));
    }
  }

  async send(pathOrUrl: string, init: SendInit = {}) {
    const { json, form, origin, ...rest } = init;
    const headers = new Headers(rest.headers);
    headers.set("fly-client-ip", this.address);
    if (this.jar.size > 0 && !headers.has("cookie")) headers.set("cookie", this.cookie());
    let body = rest.body;
    if (json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(json);
    } else if (form) {
      body = new URLSearchParams(form);
    }
    const method = rest.method ?? (body !== undefined ? "POST" : "GET");
    if (method !== "GET" && method !== "HEAD" && origin !== null) {
      headers.set("origin", origin ?? APP);
    }
    const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${APP}${pathOrUrl}`;
    const response = await fetch(url, { ...rest, method, headers, body, redirect: "manual" });
    this.remember(response);
    return response;
  }
}

/** The server signs cookies with SECRET; the test process's cookie module took its own. */
const serverSessionCookie = createCookie("__session", { secrets: [SECRET] });

/** A browser signed in as `user` (a real session row, the cookie as the server signs it). */
async function browserFor(user: User) {
  const browser = new Browser();
  const token = await sessionCookie.parse(await sessionCookieFor(user));
  const [name, ...value] = (await serverSessionCookie.serialize(token)).split(";")[0].split("=");
  browser.jar.set(name, value.join("="));
  return browser;
}

/**
 * The whole sign-in: /api/login → the issuer's form → back to /api/callback. Returns the
 * callback's answer; the browser keeps what the app set.
 */
async function signIn(browser: Browser, email: string, query = "") {
  // A browser with a live session is sent straight back from /api/login, so the flow starts
  // without it; the callback then gets every cookie the browser holds, an older session too.
  const login = await browser.send(`/api/login${query}`, {
    headers: {
      cookie: [...browser.jar]
        .filter(([name]) => name !== "__session")
        .map(([k, v]) => `${k}=${v}`)
        .join("; "),
    },
  });
  expect(login.status, await login.clone().text()).toBe(302);
  const issuerJar = new Map<string, string>();
  const atIssuer = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...issuerJar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
    });
    for (const header of response.headers.getSetCookie()) {
      const [name, ...rest] = header.split(";")[0].split("=");
      issuerJar.set(name, rest.join("="));
    }
    return response;
  };
  let response = await atIssuer(login.headers.get("location")!);
  const interaction = new URL(response.headers.get("location")!, issuer.issuer).toString();
  await atIssuer(interaction);
  response = await atIssuer(interaction, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, firstName: "Sam", lastName: "Secure" }),
  });
  response = await atIssuer(new URL(response.headers.get("location")!, issuer.issuer).toString());
  const callback = response.headers.get("location")!;
  expect(callback.startsWith(`${APP}/api/callback?`)).toBe(true);
  return { login, callback: await browser.send(callback) };
}

async function whoIs(browser: Browser) {
  const response = await browser.send("/api/auth/user");
  return response.status === 200 ? ((await response.json()) as { email: string }).email : null;
}

const unique = (label: string) =>
  `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@security.test`;

async function count(sql: string, bind: unknown[] = []) {
  const [row] = await sequelize.query<{ n: string }>(sql, { bind, type: QueryTypes.SELECT });
  return Number(row.n);
}

/** Every file under the uploads folder (objects and their metadata), relative paths. */
function storedFiles(): string[] {
  const root = path.join(uploadsDir, "objects");
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(root, entry)).isFile())
    .sort();
}

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

async function jpegPhoto(width = 640, height = 480) {
  // Noise, so the compressed data is as varied as a real photo's.
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 90, g: 120, b: 160 },
      noise: { type: "gaussian", mean: 128, sigma: 60 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer()
    .then((buffer) => new Uint8Array(buffer));
}

const bytesOf = (...parts: Array<Uint8Array | string>) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : part)));

const HTML_TAIL =
  "<html><body><script>fetch('/api/auth/user').then(r=>r.text())</script></body></html>";
const SVG = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>`;
const PDF_WITH_JS =
  "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>\nendobj\n" +
  "2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" +
  "3 0 obj\n<< /S /JavaScript /JS (app.alert\\('hi'\\)) >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n";
const PDF_WITH_ESCAPED_JS = PDF_WITH_JS.replace("/S /JavaScript /JS", "/S /Java#53cript /J#53");
// The action inside an object stream written in hex (only compressed ones used to be unpacked).
const HIDDEN_ACTION = Buffer.from("3 0 << /S /JavaScript /JS (app.alert\\('hi'\\)) >>").toString(
  "hex",
);
const PDF_WITH_JS_IN_HEX_OBJECT_STREAM =
  "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>\nendobj\n" +
  "2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" +
  `4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /ASCIIHexDecode /Length ${HIDDEN_ACTION.length + 1} >>\nstream\n` +
  `${HIDDEN_ACTION}>\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`;

// ---------------------------------------------------------------------------------------------

describe("1. sessions", () => {
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

describe("2. cookie flags in production", () => {
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

describe("3. Content-Security-Policy with a per-request nonce", () => {
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

describe("4. cross-origin writes are refused", () => {
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

describe("5. no open redirect through returnTo or redirectTo", () => {
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
    const target = new URL(location!, APP);
    expect(target.origin, `${attack} → ${location}`).toBe(APP);
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

describe("6. guessing another user's ids", () => {
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
      json: { documentURL: `${APP}/storage/${document.object_key}` },
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
    const approval = new URL(pay.headers.get("location")!, APP);
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

describe("7. rate limits answer 429 with a clear message", () => {
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
    const spend = new Request(`${APP}/`, { headers: { "fly-client-ip": browser.address } });
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

describe("8. upload attacks are refused, nothing stored, nothing recorded", () => {
  let genuineJpeg: Uint8Array;
  beforeAll(async () => {
    genuineJpeg = await jpegPhoto();
  });

  const CASES = () =>
    [
      {
        label: "JPEG header followed by HTML",
        bytes: bytesOf(JPEG_BYTES, HTML_TAIL),
        name: "id.jpg",
        type: "image/jpeg",
        message: "web page, script or PDF action",
      },
      {
        label: "a real JPEG with a script after its end",
        bytes: bytesOf(genuineJpeg, HTML_TAIL),
        name: "id.jpg",
        type: "image/jpeg",
        message: "web page, script or PDF action",
      },
      {
        label: "a JPEG comment segment holding an SVG",
        bytes: bytesOf(
          Uint8Array.from([0xff, 0xd8, 0xff, 0xfe, 0x00, 0x40]),
          "<svg onload=alert(1)>".padEnd(62, " "),
          genuineJpeg.subarray(2),
        ),
        name: "id.jpg",
        type: "image/jpeg",
        message: "web page, script or PDF action",
      },
      {
        label: "PNG signature followed by a PHP page",
        bytes: bytesOf(PNG_BYTES, "<?php system($_GET['c']); ?>"),
        name: "id.png",
        type: "image/png",
        message: "web page, script or PDF action",
      },
      {
        label: "a PDF with JavaScript",
        bytes: bytesOf(PDF_WITH_JS),
        name: "id.pdf",
        type: "application/pdf",
        message: "web page, script or PDF action",
      },
      {
        label: "a PDF with hex-escaped JavaScript names",
        bytes: bytesOf(PDF_WITH_ESCAPED_JS),
        name: "id.pdf",
        type: "application/pdf",
        message: "web page, script or PDF action",
      },
      {
        label: "a PDF with JavaScript in a hex-encoded object stream",
        bytes: bytesOf(PDF_WITH_JS_IN_HEX_OBJECT_STREAM),
        name: "id.pdf",
        type: "application/pdf",
        message: "web page, script or PDF action",
      },
      {
        label: "an SVG",
        bytes: bytesOf(SVG),
        name: "id.svg",
        type: "image/svg+xml",
        message: "Only JPG, PNG or PDF files are accepted",
      },
      {
        label: "text declared as a JPEG",
        bytes: bytesOf("just some text, honest"),
        name: "id.jpg",
        type: "image/jpeg",
        message: "Only JPG, PNG or PDF files are accepted",
      },
      {
        label: "a PNG declared as a JPEG",
        bytes: bytesOf(PNG_BYTES),
        name: "id.jpg",
        type: "image/jpeg",
        message: "does not match its type",
      },
      {
        label: "an empty file",
        bytes: new Uint8Array(),
        name: "id.jpg",
        type: "image/jpeg",
        message: "The file is empty",
      },
      {
        label: "a file over 10 MB",
        bytes: (() => {
          const big = new Uint8Array(10_485_761);
          big.set(JPEG_BYTES);
          return big;
        })(),
        name: "id.jpg",
        type: "image/jpeg",
        message: "larger than 10 MB",
      },
      {
        label: "a name that is only ..",
        bytes: bytesOf(PNG_BYTES),
        name: "..",
        type: "image/png",
        message: "names a folder path",
      },
      {
        label: "a path whose last part is ..",
        bytes: bytesOf(PNG_BYTES),
        name: "uploads/..",
        type: "image/png",
        message: "names a folder path",
      },
    ] as const;

  it("by the KYC form (no JavaScript): each refused with its message", async () => {
    const user = await createTestUser();
    const browser = await browserFor(user);
    const before = storedFiles();
    for (const attack of CASES()) {
      const form = new FormData();
      form.set("documentType", "license");
      form.set("file", new File([attack.bytes], attack.name, { type: attack.type }));
      const response = await browser.send("/kyc-verification", { body: form });
      expect(response.status, attack.label).toBe(400);
      const html = (await response.text()).replace(/&#x27;|&#39;/g, "'");
      expect(html, attack.label).toContain(attack.message);
      expect(storedFiles(), attack.label).toEqual(before);
    }
    expect(await count("select count(*) n from uploads where user_id = $1", [user.id])).toBe(0);
    expect(await count("select count(*) n from kyc_documents where user_id = $1", [user.id])).toBe(
      0,
    );

    // Genuine files still go through, whatever directories their names claim: Remix keeps only
    // the last part of a name and our keys are random, so nothing lands outside the folder.
    for (const [bytes, name, type] of [
      [genuineJpeg, "id.jpg", "image/jpeg"],
      [PDF_BYTES, "id.pdf", "application/pdf"],
      [PNG_BYTES, "../../../../tmp/owned.png", "image/png"],
      [PNG_BYTES, "..\\..\\owned.png", "image/png"],
    ] as const) {
      const form = new FormData();
      form.set("documentType", "license");
      form.set("file", new File([new Uint8Array(bytes)], name, { type }));
      expect((await browser.send("/kyc-verification", { body: form })).status, name).toBe(302);
    }
    const keys = await sequelize.query<{ object_key: string }>(
      "select object_key from kyc_documents where user_id = $1",
      { bind: [user.id], type: QueryTypes.SELECT },
    );
    expect(keys).toHaveLength(4);
    for (const { object_key } of keys) expect(object_key).toMatch(/^kyc\/[A-Za-z0-9_-]{32}$/);
    expect(
      storedFiles().every((file) => /^kyc\/[A-Za-z0-9_-]{32}(\.meta\.json)?$/.test(file)),
    ).toBe(true);
    expect(fs.existsSync("/tmp/owned.png")).toBe(false);
    expect(fs.existsSync(path.join(uploadsDir, "..", "owned.png"))).toBe(false);
    expect(fs.existsSync(path.join(uploadsDir, "owned.png"))).toBe(false);
  });

  it("by the upload URL (with JavaScript): refused when declared or when confirmed, object deleted", async () => {
    const user = await createTestUser();
    const browser = await browserFor(user);
    const before = storedFiles();
    for (const declared of [
      { size: 100, contentType: "image/svg+xml", message: "Only JPG, PNG or PDF" },
      { size: 100, contentType: "text/html", message: "Only JPG, PNG or PDF" },
      { size: 0, contentType: "image/jpeg", message: "The file is empty" },
      { size: 10_485_761, contentType: "image/jpeg", message: "larger than 10 MB" },
    ]) {
      const response = await browser.send("/api/objects/upload", { json: declared });
      expect(response.status, declared.contentType).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(declared.message);
    }
    for (const attack of CASES().filter(
      // No name travels with an upload URL (the object key is ours): name cases do not apply.
      (c) =>
        c.message !== "names a folder path" &&
        c.bytes.byteLength > 0 &&
        c.bytes.byteLength <= 10_485_760 &&
        c.type !== "image/svg+xml",
    )) {
      const issued = await browser.send("/api/objects/upload", {
        json: { size: attack.bytes.byteLength, contentType: attack.type },
      });
      expect(issued.status, attack.label).toBe(200);
      const { uploadURL } = (await issued.json()) as { uploadURL: string };
      const put = await browser.send(uploadURL, {
        method: "PUT",
        body: attack.bytes,
        headers: { "content-type": attack.type },
      });
      expect(put.status, attack.label).toBe(200);
      const confirm = await browser.send("/api/kyc/document-url", {
        method: "PUT",
        json: { documentURL: uploadURL },
      });
      expect(confirm.status, attack.label).toBe(400);
      expect(((await confirm.json()) as { message: string }).message, attack.label).toContain(
        attack.message,
      );
      // Refused objects are deleted; a later submit finds nothing to attach.
      const objectPath = `/objects/${new URL(uploadURL).pathname.slice("/storage/incoming/".length)}`;
      const submit = await browser.send("/api/kyc/documents", {
        json: { documentType: "license", documentUrl: objectPath },
      });
      expect(submit.status, attack.label).toBe(404);
    }
    expect(storedFiles()).toEqual(before);
    expect(await count("select count(*) n from kyc_documents where user_id = $1", [user.id])).toBe(
      0,
    );
    expect(
      await count("select count(*) n from uploads where user_id = $1 and status <> 'discarded'", [
        user.id,
      ]),
    ).toBe(0);
  });

  it("listing photos: refused with a message, no listing, no photo stored", async () => {
    const user = await createTestUser();
    const browser = await browserFor(user);
    const before = storedFiles();
    const photoCases = [
      { label: "JPEG header + HTML", bytes: bytesOf(JPEG_BYTES, HTML_TAIL), name: "car.jpg" },
      { label: "real JPEG + script", bytes: bytesOf(genuineJpeg, HTML_TAIL), name: "car.jpg" },
      { label: "SVG", bytes: bytesOf(SVG), name: "car.svg", type: "image/svg+xml" },
      { label: "text as JPEG", bytes: bytesOf("not a picture"), name: "car.jpg" },
      { label: "a PDF", bytes: bytesOf(PDF_BYTES), name: "car.jpg" },
      { label: "empty", bytes: new Uint8Array(), name: "car.jpg" },
      { label: "over 10 MB", bytes: new Uint8Array(10_485_761).fill(0xff), name: "car.jpg" },
      { label: "a name that is only ..", bytes: genuineJpeg, name: ".." },
    ];
    for (const attack of photoCases) {
      const form = new FormData();
      for (const [key, value] of Object.entries({
        title: `Upload attack ${attack.label}`,
        make: "Jeep",
        model: "Wrangler",
        year: "2017",
        price: "24000",
        condition: "good",
        city: "Denver",
      }))
        form.set(key, value);
      form.append(
        "photos",
        new File([new Uint8Array(attack.bytes)], attack.name, {
          type: attack.type ?? "image/jpeg",
        }),
      );
      const response = await browser.send("/post-vehicle", { body: form });
      expect(response.status, attack.label).toBe(400);
      expect(await response.text(), attack.label).toMatch(
        /Photos must be JPG or PNG|could not be read|web page or script|is empty|at most 10 MB|names a folder path/,
      );
    }
    expect(storedFiles()).toEqual(before);
    expect(await count("select count(*) n from listings where user_id = $1", [user.id])).toBe(0);

    // A genuine photo is taken (re-encoded).
    const ok = new FormData();
    for (const [key, value] of Object.entries({
      title: "Genuine photo",
      make: "Jeep",
      model: "Wrangler",
      year: "2017",
      price: "24000",
      condition: "good",
      city: "Denver",
    }))
      ok.set(key, value);
    ok.append("photos", new File([new Uint8Array(genuineJpeg)], "car.jpg", { type: "image/jpeg" }));
    ok.append(
      "photos",
      new File([new Uint8Array(genuineJpeg)], "../../../tmp/owned-photo.jpg", {
        type: "image/jpeg",
      }),
    );
    expect((await browser.send("/post-vehicle", { body: ok })).status).toBe(302);
    expect(fs.existsSync("/tmp/owned-photo.jpg")).toBe(false);
    const photos = await sequelize.query<{ storage_key: string }>(
      `select p.storage_key from listing_photos p join listings l on l.id = p.listing_id
        where l.user_id = $1`,
      { bind: [user.id], type: QueryTypes.SELECT },
    );
    expect(photos).toHaveLength(2);
    for (const photo of photos) expect(photo.storage_key).toMatch(/^listings\/[A-Za-z0-9_-]{32}$/);
    expect(await count("select count(*) n from listings where user_id = $1", [user.id])).toBe(1);
  });

  it("the storage route refuses keys that climb out of its folder", async () => {
    const browser = new Browser();
    for (const key of ["..%2F..%2Fescape.txt", "%2e%2e/%2e%2e/etc/passwd", "kyc/..%2F..%2Fx"]) {
      const put = await browser.send(
        `/storage/${key}?ct=text%2Fplain&len=3&exp=9999999999&sig=forged`,
        { method: "PUT", body: "abc", headers: { "content-type": "text/plain" } },
      );
      expect([403, 404, 405], key).toContain(put.status);
      const get = await browser.send(`/storage/${key}?exp=9999999999&sig=forged`);
      expect([403, 404], key).toContain(get.status);
      expect(await get.text()).not.toMatch(/root:|bidyard/);
    }
    expect(fs.existsSync(path.join(uploadsDir, "..", "escape.txt"))).toBe(false);
  });
});

describe("9. dependencies", () => {
  it("production dependencies are pinned exactly and locked with integrity hashes", () => {
    const manifest = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
      dependencies: Record<string, string>;
    };
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")) as {
      packages: Record<string, { version?: string; integrity?: string; dev?: boolean }>;
    };
    const names = Object.keys(manifest.dependencies);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      expect(manifest.dependencies[name], name).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
      const locked = lock.packages[`node_modules/${name}`];
      expect(locked?.version, name).toBe(manifest.dependencies[name]);
    }
    // Everything production installs (direct or not) comes from the lock with a sha512 hash.
    const production = Object.entries(lock.packages).filter(
      ([key, entry]) => key.startsWith("node_modules/") && !entry.dev,
    );
    expect(production.length).toBeGreaterThan(names.length);
    for (const [key, entry] of production) {
      if (!entry.version) continue; // a link
      expect(entry.integrity, key).toMatch(/^sha512-/);
    }
  });
});
