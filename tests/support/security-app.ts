// BidYard's security suite, tests/integration/security-*.test.ts, one file per concern. Each file
// starts the PRODUCTION build (NODE_ENV=production, remix-serve, the file's own database, a real
// local OpenID issuer, the filesystem storage in a temporary folder) with startSecurityApp() and
// drives it over HTTP the way a browser or an attacker would, with the Browser below. Feature
// files test the same rules closer to the code; these check the assembled server:
//
//   security-sessions      a new session id at every sign-in, no planted cookie, logout
//   security-cookies       every cookie the app sets is HttpOnly, SameSite=Lax, Secure
//   security-csp           Content-Security-Policy with a fresh nonce per request
//   security-cross-origin  cross-origin writes refused (403), nothing written
//   security-redirects     no open redirect through returnTo / redirectTo
//   security-guessed-ids   another user's documents, orders, listings, notes and bids
//   security-rate-limits   429 with a clear message and Retry-After
//   security-uploads       polyglots, SVG, oversized, empty, path-traversal names
//   security-dependencies  production dependencies pinned and locked (needs no server)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import sharp from "sharp";
import { afterAll, beforeAll, expect } from "vitest";
import { startLocalIssuer, type LocalIssuer } from "../../scripts/local-issuer";
import type { User } from "~/models/user.server";
import { sessionCookie } from "~/http/cookies.server";
import { resetEnvForTests } from "~/platform/env.server";
import { LOCAL_OIDC_CLIENT_ID, LOCAL_OIDC_CLIENT_SECRET } from "~/services/accounts/local-oidc";
import { ensureBuilt, startApp, waitFor200, type AppProcess } from "./app-process";
import { sessionCookieFor } from "./auth";
import { freePort } from "./cluster";
import { throughIssuer } from "./oidc";

const SECRET = "security-suite-session-secret-0123456789abcdef";
export const EVIL = "https://evil.example";
export const TOO_MANY = "Too many requests. Please wait a moment and try again.";

/** The running server of this test file, filled in by startSecurityApp()'s beforeAll. */
export const securityApp = {
  /** The app's own origin, http://localhost:<port>. */
  url: "",
  /** The filesystem storage's folder (FILE_STORAGE=local). */
  uploadsDir: "",
  issuer: undefined as unknown as LocalIssuer,
};

/** Starts the production server (and its issuer) before the file's tests, stops it after. */
export function startSecurityApp() {
  let app: AppProcess | undefined;
  beforeAll(async () => {
    await ensureBuilt();
    const port = await freePort();
    const url = `http://localhost:${port}`;
    securityApp.url = url;
    securityApp.issuer = await startLocalIssuer({ redirectUris: [`${url}/api/callback`] });
    const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "bidyard-security-"));
    securityApp.uploadsDir = uploadsDir;
    process.env.UPLOADS_DIR = uploadsDir;
    resetEnvForTests();
    app = startApp(
      {
        NODE_ENV: "production",
        DATABASE_URL: process.env.DATABASE_URL!,
        SESSION_SECRET: SECRET,
        APP_URL: url,
        OIDC_ISSUER: securityApp.issuer.issuer,
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
    await waitFor200(`${url}/healthz`, app);
  }, 120_000);

  afterAll(async () => {
    if (process.env.SECURITY_DEBUG) console.log(app?.output());
    await app?.stop();
    await securityApp.issuer?.stop();
    if (securityApp.uploadsDir) fs.rmSync(securityApp.uploadsDir, { recursive: true, force: true });
  });
}

// ---------------------------------------------------------------------------------------------
// A small browser: a cookie jar, its own client address (the rate limits' key), same-origin
// writes unless told otherwise, redirects not followed.

let addressCounter = 0;

export type SendInit = Omit<RequestInit, "body"> & {
  json?: unknown;
  form?: Record<string, string>;
  body?: BodyInit;
  /** The Origin header for a write (default: the app's own); null sends none. */
  origin?: string | null;
};

export class Browser {
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
      headers.set("origin", origin ?? securityApp.url);
    }
    const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${securityApp.url}${pathOrUrl}`;
    const response = await fetch(url, { ...rest, method, headers, body, redirect: "manual" });
    this.remember(response);
    return response;
  }
}

/** The server signs cookies with SECRET; the test process's cookie module took its own. */
const serverSessionCookie = createCookie("__session", { secrets: [SECRET] });

/** A browser signed in as `user` (a real session row, the cookie as the server signs it). */
export async function browserFor(user: User) {
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
export async function signIn(browser: Browser, email: string, query = "") {
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
  const callback = await throughIssuer(securityApp.issuer, login.headers.get("location")!, {
    email,
    firstName: "Sam",
    lastName: "Secure",
  });
  expect(callback.startsWith(`${securityApp.url}/api/callback?`)).toBe(true);
  return { login, callback: await browser.send(callback) };
}

export async function whoIs(browser: Browser) {
  const response = await browser.send("/api/auth/user");
  return response.status === 200 ? ((await response.json()) as { email: string }).email : null;
}

export const unique = (label: string) =>
  `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@security.test`;

/** Every file under the uploads folder (objects and their metadata), relative paths. */
export function storedFiles(): string[] {
  const root = path.join(securityApp.uploadsDir, "objects");
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((entry) => fs.statSync(path.join(root, entry)).isFile())
    .sort();
}

/** A JPEG of noise, so the compressed data is as varied as a real photo's. */
export async function jpegPhoto(width = 640, height = 480) {
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
