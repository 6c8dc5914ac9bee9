import { ConnectionError, DatabaseError, TimeoutError } from "sequelize";
import { wantsJson } from "~/utils/http.server";

const UNAVAILABLE = "BidYard is briefly unavailable. Please try again in a moment.";
// PostgreSQL's own "shutting down / starting up / cannot connect now" codes.
const SERVER_GOING_AWAY = new Set(["57P01", "57P02", "57P03"]);

/** True when an error means the database cannot be reached right now (not a bad query). */
export function isDatabaseOutage(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return true;
  if (error instanceof DatabaseError) {
    const code = (error.original as { code?: string } | undefined)?.code;
    if (code && SERVER_GOING_AWAY.has(code)) return true;
    return /Connection terminated|connection is closed|ECONNREFUSED/i.test(error.message);
  }
  return false;
}

/**
 * Runs `work`; if the database is down, answers a clear 503 (JSON for calls, a page otherwise)
 * instead of a 500, so people and load balancers can tell an outage from a bug.
 */
export async function whileDatabaseUp<T>(request: Request, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isDatabaseOutage(error)) throw error;
    const headers = { "Retry-After": "10" };
    throw wantsJson(request)
      ? Response.json({ error: UNAVAILABLE, message: UNAVAILABLE }, { status: 503, headers })
      : new Response(UNAVAILABLE, { status: 503, headers });
  }
}
