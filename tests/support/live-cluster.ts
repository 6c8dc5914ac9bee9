// Production server processes on one throwaway PostgreSQL, for the live-stream tests and bench:
// a migrated database, people signed in by a session row, lots, and the servers themselves.
import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import pg from "pg";
import { startApp, waitFor200, type AppProcess } from "./app-process";
import { freePort } from "./cluster";
import { createDatabase, migrateDatabase } from "./databases";

// The servers' session secret; cookies are signed with it here as the app signs its own.
const SECRET = "live-stream-test-secret-0123456789abcdef";
const sessionCookie = createCookie("__session", { secrets: [SECRET] });

export async function liveDatabase(adminUrl: string, name: string) {
  await createDatabase(adminUrl, name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  return url.toString();
}

/** A verified bidder with a deposit and the Cookie header of a fresh session. */
export async function liveBidder(db: pg.Client, label: string) {
  const {
    rows: [user],
  } = await db.query<{ id: string }>(
    `INSERT INTO users (email, first_name, last_name, verified, deposit)
     VALUES ($1, 'Live', $2, true, 100000) RETURNING id`,
    [`${label}-${randomBytes(4).toString("hex")}@bidyard.test`, label],
  );
  const token = randomBytes(32).toString("base64url");
  await db.query(
    "INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')",
    [createHash("sha256").update(token).digest("hex"), user.id],
  );
  const cookie = (await sessionCookie.serialize(token)).split(";")[0];
  return { id: user.id, cookie };
}

/** Open lots ending in `endsInMs`; returns their ids. */
export async function liveLots(db: pg.Client, count: number, endsInMs = 24 * 60 * 60 * 1000) {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
       location_state, starts_at, ends_at)
     SELECT 'copart', 'L' || $1 || '-' || n, '1FTEW1EP5JK' || lpad(n::text, 6, '0'), 2018, 'Ford',
       'F-150', 'Dallas', 'TX', now() - interval '1 hour', now() + make_interval(secs => $3)
       FROM generate_series(1, $2) AS n RETURNING id::text AS id`,
    [randomBytes(3).toString("hex"), count, endsInMs / 1000],
  );
  return rows.map((row) => row.id);
}

export function liveServerEnv(
  databaseUrl: string,
  port: number,
  extra: Record<string, string> = {},
) {
  return {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: SECRET,
    APP_URL: `http://localhost:${port}`,
    OIDC_ISSUER: "https://id.bidyard.example",
    OIDC_CLIENT_ID: "bidyard",
    OIDC_CLIENT_SECRET: "client-secret",
    PAYPAL_CLIENT_ID: "paypal-id",
    PAYPAL_CLIENT_SECRET: "paypal-secret",
    // these servers store no files; said outright, as production must (docs/decisions/3105)
    FILE_STORAGE: "local",
    ...extra,
  };
}

export async function startLiveServer(
  databaseUrl: string,
  extra: Record<string, string> = {},
  nodeArgs: string[] = [],
) {
  const port = await freePort();
  const app: AppProcess = startApp(liveServerEnv(databaseUrl, port, extra), port, nodeArgs);
  await waitFor200(`${app.url}/healthz`, app, 60_000);
  return app;
}

/** POST /api/bids through `app` as `who`. */
export function bidThrough(
  app: AppProcess,
  who: { cookie: string },
  lotId: string,
  amount: number,
) {
  return fetch(`${app.url}/api/bids`, {
    method: "POST",
    headers: {
      Cookie: who.cookie,
      "Content-Type": "application/json",
      Accept: "application/json",
      Origin: app.url,
    },
    body: JSON.stringify({ vehicleId: lotId, amount: amount.toFixed(2), isProxyBid: false }),
  });
}

/** GET a lot stream from `app` as `who` (fetch: the body is the event stream). */
export function streamFrom(
  app: AppProcess,
  who: { cookie: string },
  path: string,
  init: { lastEventId?: string; signal?: AbortSignal } = {},
) {
  return fetch(`${app.url}${path}`, {
    headers: {
      Cookie: who.cookie,
      Accept: "text/event-stream",
      ...(init.lastEventId ? { "Last-Event-ID": init.lastEventId } : {}),
    },
    signal: init.signal,
  });
}
