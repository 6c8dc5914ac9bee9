import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { sequelize } from "~/models/db.server";
import { env } from "~/platform/env.server";
import { jsonError } from "~/http/http.server";
import { rateLimitedTotal } from "~/platform/metrics.server";

type Policy = { points: number; duration: number };

/** Limits per action; counters live in PostgreSQL so every app machine shares them. */
export const RATE_LIMITS = {
  signIn: { points: 20, duration: 60 },
  /** New accounts made by first sign-ins, per client address (docs/decisions/0903). */
  signUp: { points: 10, duration: 60 * 60 },
  earlyAccess: { points: 5, duration: 60 },
  bid: { points: env().BID_RATE_LIMIT_PER_MINUTE, duration: 60 },
  upload: { points: 20, duration: 60 * 10 },
  payment: { points: 30, duration: 60 },
  /** Messages one person may send to sellers and buyers per hour (docs/decisions/2154). */
  message: { points: 30, duration: 60 * 60 },
  /** Contact-page messages per client address per hour (docs/decisions/3301). */
  contact: { points: 5, duration: 60 * 60 },
} satisfies Record<string, Policy>;

export type RateLimitName = keyof typeof RATE_LIMITS;

const limiters = new Map<string, RateLimiterPostgres>();

function limiterFor(name: RateLimitName) {
  let limiter = limiters.get(name);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      storeClient: sequelize,
      storeType: "sequelize",
      tableName: "rate_limits",
      tableCreated: true,
      keyPrefix: name,
      ...RATE_LIMITS[name],
    });
    limiters.set(name, limiter);
  }
  return limiter;
}

/**
 * The caller's address. The server (server/edge.ts) sets Fly-Client-IP on every request: Fly's value behind Fly's
 * proxy (which overwrites what clients send), else the socket's address, so a client cannot pick
 * its bucket (docs/decisions/1307-client-address.md). X-Forwarded-For is never trusted.
 */
export function clientAddress(request: Request) {
  return request.headers.get("fly-client-ip")?.trim() || "direct";
}

/**
 * A limiter's counter as SQL moves it where one statement does the whole request (the bid:
 * place_bid_in_session, docs/decisions/1903): the same table, key prefix, points and window.
 */
export function limiterWindow(name: RateLimitName) {
  return { prefix: name, points: RATE_LIMITS[name].points, ms: RATE_LIMITS[name].duration * 1000 };
}

/**
 * The 429 for a spent limit, with Retry-After: the limit's own wait (msBeforeNext). Calls and
 * pages get the same JSON body, so a page's error boundary can say how long in words
 * (docs/decisions/3521).
 */
export function tooManyRequests(_request: Request, msBeforeNext: number, limit = "bid") {
  rateLimitedTotal.inc({ limit });
  const retryAfter = String(Math.max(1, Math.ceil(msBeforeNext / 1000)));
  const message = "Too many requests. Please wait a moment and try again.";
  const answer = jsonError(429, message, { retryAfter: Number(retryAfter) });
  answer.headers.set("Retry-After", retryAfter);
  return answer;
}

/** Counts one use of `name` for `key`; throws a 429 (JSON or page) when the limit is spent. */
export async function consumeRateLimit(request: Request, name: RateLimitName, key: string) {
  try {
    await limiterFor(name).consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    throw tooManyRequests(request, error.msBeforeNext, name);
  }
}
