import { ConnectionError, DatabaseError, TimeoutError } from "sequelize";
import { wantsJson } from "~/http/http.server";

// /healthz asks through here: routes do not reach into app/models.
import { databaseIsUp } from "~/models/db.server";
import { noteReplicaFailed } from "~/models/replica.server";
import { askReplica, replicaReport } from "./regions.server";

export { databaseIsUp };

/**
 * /healthz's answer: "OK" while the database answers, else 503. The production server answers it
 * before Remix (server/worker.ts, docs/decisions/3405); the route module gives the same answer
 * wherever Remix serves it.
 */
export async function healthAnswer() {
  const [up] = await Promise.all([databaseIsUp(), askReplica()]);
  const body = up ? "OK" : "Database unavailable";
  // outside the primary region, a second line says whether pages are read here or come from the
  // primary region (docs/decisions/3701); the machine serves either way
  const replica = replicaReport();
  return { status: up ? 200 : 503, body: replica ? `${body}\n${replica}` : body };
}

export const HEALTH_HEADERS = {
  "Content-Type": "text/plain; charset=utf-8",
  "Cache-Control": "no-store",
} as const;

export const UNAVAILABLE = "BidYard is briefly unavailable. Please try again in a moment.";
// PostgreSQL's own "shutting down / starting up / cannot connect now" codes, and class 08
// (connection exceptions).
const SERVER_GOING_AWAY = new Set(["57P01", "57P02", "57P03", "08000", "08003", "08006"]);
// "cannot execute … in a read-only transaction": a replica (or a primary being replaced) refused a
// write. Not a bug of the query: the request goes to the primary region (docs/decisions/3701), or
// answers the outage's 503 in it.
const READ_ONLY_SERVER = "25006";
// Node's socket errors when the server is gone or the connection broke.
const SOCKET_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"]);
const LOST_CONNECTION =
  /Connection terminated|connection is closed|Client has encountered a connection error|ECONNREFUSED|ECONNRESET/i;

/**
 * True when an error means the database cannot be reached right now (not a bad query). Knows
 * Sequelize's errors and the raw `pg` ones (the rate limiter talks to pooled clients directly).
 */
export function isDatabaseOutage(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return true;
  if (error instanceof DatabaseError) {
    const code = (error.original as { code?: string } | undefined)?.code;
    if (code && (SERVER_GOING_AWAY.has(code) || code === READ_ONLY_SERVER)) return true;
    return LOST_CONNECTION.test(error.message);
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (
      typeof code === "string" &&
      (SERVER_GOING_AWAY.has(code) || SOCKET_ERRORS.has(code) || code === READ_ONLY_SERVER)
    )
      return true;
    return LOST_CONNECTION.test(error.message);
  }
  return false;
}

/** The 503 an outage answers: JSON for calls, a short page otherwise, with Retry-After. */
export function databaseUnavailable(request: Request) {
  const headers = { "Retry-After": "10" };
  return wantsJson(request)
    ? Response.json({ error: UNAVAILABLE, message: UNAVAILABLE }, { status: 503, headers })
    : new Response(UNAVAILABLE, { status: 503, headers });
}

/**
 * The one outage rule: every loader and action runs in this, through its guard
 * (app/http/route-guards.server.ts, docs/decisions/3611); nothing else needs to call it.
 * Runs `work`; if the database is down, answers a clear 503 (JSON for calls, a page otherwise)
 * instead of a 500, so people and load balancers can tell an outage from a bug. A request cut off
 * mid-transaction may still have committed: callers retry with the same intent (a bid answered
 * 503 may stand; a deposit confirmation is safe to repeat).
 */
export async function whileDatabaseUp<T>(request: Request, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isDatabaseOutage(error)) throw error;
    // in a request reading a replica, the edge replays this 503 to the primary region instead
    noteReplicaFailed();
    throw databaseUnavailable(request);
  }
}
