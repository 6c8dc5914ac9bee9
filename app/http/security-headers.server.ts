import { randomBytes } from "node:crypto";
import type { EntryContext } from "@remix-run/node";
import { env } from "~/platform/env.server";

/** Sources a route adds to the page's Content-Security-Policy through `handle.csp`. */
export type CspAdditions = Partial<
  Record<"scriptSrc" | "connectSrc" | "frameSrc" | "imgSrc" | "formAction" | "styleSrc", string[]>
>;

export function cspAdditionsFor(context: EntryContext): CspAdditions {
  const merged: CspAdditions = {};
  for (const match of context.staticHandlerContext.matches) {
    const handle = context.routeModules[match.route.id]?.handle as
      { csp?: CspAdditions } | undefined;
    for (const [key, sources] of Object.entries(handle?.csp ?? {})) {
      const k = key as keyof CspAdditions;
      merged[k] = [...(merged[k] ?? []), ...(sources ?? [])];
    }
  }
  return merged;
}

function origin(url: string | undefined) {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export function contentSecurityPolicy(nonce: string, extra: CspAdditions = {}) {
  const e = env();
  const dev = e.NODE_ENV === "development";
  const storage = e.s3Configured ? origin(e.S3_ENDPOINT) : undefined;
  const issuer = origin(e.OIDC_ISSUER) ?? `http://127.0.0.1:${e.LOCAL_OIDC_PORT}`;
  const list = (...items: Array<string | undefined | false>) =>
    items.filter((item): item is string => Boolean(item)).join(" ");
  const directives = {
    "default-src": "'self'",
    "script-src": list(
      "'self'",
      `'nonce-${nonce}'`,
      "'strict-dynamic'",
      ...(extra.scriptSrc ?? []),
    ),
    "style-src": list("'self'", "'unsafe-inline'", ...(extra.styleSrc ?? [])),
    "img-src": list("'self'", "data:", "blob:", storage, ...(extra.imgSrc ?? [])),
    "font-src": "'self'",
    "connect-src": list(
      "'self'",
      storage,
      dev && "ws://localhost:3001",
      ...(extra.connectSrc ?? []),
    ),
    "frame-src": list("'self'", ...(extra.frameSrc ?? [])),
    "form-action": list("'self'", issuer, ...(extra.formAction ?? [])),
    "frame-ancestors": "'none'",
    "base-uri": "'self'",
    "object-src": "'none'",
    ...(e.isProduction ? { "upgrade-insecure-requests": "" } : {}),
  };
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`.trim())
    .join("; ");
}

// A page's policy is the same for every request to the same routes but for its nonce: it is built
// once per set of matched routes (its sources read from the environment, parsed from URLs) and
// the nonce set into it (docs/decisions/2908). A new environment (tests reset it) builds anew.
const NONCE_MARK = "\u0000nonce\u0000";
let policies: { for: ReturnType<typeof env>; byRoutes: Map<string, [string, string]> } | undefined;

/** The page's Content-Security-Policy with `nonce`, for the routes the request matched. */
export function pageContentSecurityPolicy(context: EntryContext, nonce: string) {
  const current = env();
  if (policies?.for !== current) policies = { for: current, byRoutes: new Map() };
  const key = context.staticHandlerContext.matches.map((match) => match.route.id).join(" ");
  let parts = policies.byRoutes.get(key);
  if (!parts) {
    const [head, tail] = contentSecurityPolicy(NONCE_MARK, cspAdditionsFor(context)).split(
      NONCE_MARK,
    );
    parts = [head, tail];
    if (policies.byRoutes.size >= 500) policies.byRoutes.clear();
    policies.byRoutes.set(key, parts);
  }
  return `${parts[0]}${nonce}${parts[1]}`;
}

// Nonces come from a block of random bytes drawn 4 KiB at a time: each is 16 bytes of the system's
// secure generator, used once, as before; only the calls into it are fewer.
let randomBlock = Buffer.alloc(0);
let used = 0;

/** A fresh nonce for a page's scripts: 16 random bytes, base64. */
export function scriptNonce() {
  if (used + 16 > randomBlock.length) {
    randomBlock = randomBytes(4096);
    used = 0;
  }
  const nonce = randomBlock.toString("base64", used, used + 16);
  used += 16;
  return nonce;
}

/** Headers every response carries (pages, data and resource routes). */
export function applySecurityHeaders(headers: Headers) {
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (env().isProduction) {
    headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  }
}
