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
