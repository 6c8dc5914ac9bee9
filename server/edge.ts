// What every request meets before Remix (docs/decisions/1305 to 1307, 3006): the caller's address,
// the security headers every answer carries, and the refusal of a write from another site.
import type { NextFunction, Request, Response } from "express";
import {
  CROSS_ORIGIN_REFUSED,
  SAFE_METHODS,
  isCrossOriginWrite,
  originMissesHost,
} from "../app/http/same-origin.ts";
import { wantsJson } from "./body-bounds.ts";

// Fly's proxy sets Fly-Client-IP (and overwrites whatever a client sent); anywhere else the
// header is the client's own word. The app reads the address from that header, so it is set here
// for every request: Fly's value only when the server runs behind Fly, else the socket's address.
export const trustFly =
  process.env.TRUST_PROXY === "fly" ||
  (process.env.TRUST_PROXY === undefined && Boolean(process.env.FLY_APP_NAME));

export function clientAddress(req: Request, _res: Response, next: NextFunction) {
  const fromFly = trustFly ? req.get("fly-client-ip")?.trim() : undefined;
  const socket = (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
  req.headers["fly-client-ip"] = fromFly || socket || "unknown";
  next();
}

// Pages get their own Content-Security-Policy (with a nonce) from the app; every other answer
// (JSON, CSV, stored files, photos, plain-text errors, assets) gets one that runs nothing and may
// not be framed, and all of them nosniff. Set just before the headers go out, so a header the app
// chose wins.
const isProduction = process.env.NODE_ENV === "production";
const DEFAULT_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "sandbox; default-src 'none'; frame-ancestors 'none'",
  ...(isProduction ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
};

const DEFAULT_ENTRIES = Object.entries(DEFAULT_HEADERS);

export function securityHeaders(_req: Request, res: Response, next: NextFunction) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    for (const [name, value] of DEFAULT_ENTRIES) {
      if (!res.hasHeader(name)) res.setHeader(name, value);
    }
    // Every 429 says when to come back (docs/decisions/3006): the limits set their own wait; an
    // answer that lost it on the way (a page's error boundary drops a thrown answer's headers)
    // gets a minute.
    const status = typeof args[0] === "number" ? args[0] : res.statusCode;
    if (status === 429 && !res.hasHeader("retry-after")) res.setHeader("Retry-After", "60");
    return writeHead.apply(this, args as Parameters<Response["writeHead"]>);
  } as Response["writeHead"];
  next();
}

/**
 * Writes from another site are refused before Remix sees them (its own guard would answer page
 * routes with a bare 500), by the rule the app's actions apply too (app/http/same-origin.ts), and
 * so is a write whose Origin is not the host it came to, Remix's own rule for a page's form post
 * (docs/decisions/3671).
 */
export function refuseCrossOriginWrites(appUrl: string | undefined) {
  const appOrigin = appUrl ? new URL(appUrl).origin : null;
  return (req: Request, res: Response, next: NextFunction) => {
    // a read is never refused: nothing of the request is looked at (record 3404)
    if (SAFE_METHODS.has(req.method)) return next();
    const allowed = new Set([`${req.protocol}://${req.get("host")}`]);
    if (appOrigin) allowed.add(appOrigin);
    const refused =
      isCrossOriginWrite(req.method, req.get("origin"), req.get("referer"), allowed) ||
      originMissesHost(req.method, req.get("origin"), req.get("x-forwarded-host"), req.get("host"));
    if (!refused) return next();
    res.status(403);
    if (wantsJson(req)) res.json({ error: CROSS_ORIGIN_REFUSED, message: CROSS_ORIGIN_REFUSED });
    else res.type("text").send(CROSS_ORIGIN_REFUSED);
  };
}
