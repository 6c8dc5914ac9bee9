// Direct access to the e2e app's database for arranging state (like a fixture loader would).
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { createCookie } from "@remix-run/node";
import type { BrowserContext } from "@playwright/test";
import pg from "pg";
import { waitFor } from "../support/wait";
import { E2E_SESSION_SECRET, e2eStateFile } from "./state";

const port = Number(process.env.E2E_PORT ?? 3100);
let pool: pg.Pool | undefined;

export function e2eDb() {
  if (!pool) {
    const { databaseUrl } = JSON.parse(fs.readFileSync(e2eStateFile(port), "utf8"));
    pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  }
  return pool;
}

export async function query<T extends pg.QueryResultRow = Record<string, unknown>>(
  sql: string,
  params: unknown[] = [],
) {
  return (await e2eDb().query<T>(sql, params)).rows;
}

/**
 * Waits until the job worker has closed a lot moved past its end (its close job runs at the new
 * end; a page never closes a lot itself, docs/decisions/3562): 15 s at most.
 */
export async function lotClosed(lotId: string | number) {
  await waitFor(
    async () => {
      const [lot] = await query<{ status: string }>("SELECT status FROM lots WHERE id = $1", [
        lotId,
      ]);
      return lot?.status !== "active";
    },
    { what: `lot ${lotId} closed by the job worker`, timeout: 15_000, every: 100 },
  );
}

/** Creates (or finds) a user by e-mail with the given fields and returns its id. */
export async function ensureUser(
  email: string,
  fields: Partial<{
    first_name: string;
    last_name: string;
    role: string;
    verified: boolean;
    deposit: string;
    account_type: string;
  }> = {},
) {
  const columns = Object.keys(fields);
  const values = Object.values(fields);
  const rows = await query<{ id: string }>(
    `insert into users (email${columns.map((c) => `, ${c}`).join("")})
     values ($1${columns.map((_, i) => `, $${i + 2}`).join("")})
     on conflict (lower(email)) do update set updated_at = now()
       ${columns.map((c, i) => `, ${c} = $${i + 2}`).join("")}
     returning id`,
    [email, ...values],
  );
  return rows[0].id;
}

const cookie = createCookie("__session", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secrets: [E2E_SESSION_SECRET],
});

/**
 * Signs `email` in for this browser context by writing a session row and its cookie, the way the
 * sign-in callback would. Tests of the sign-in flow itself go through the real issuer instead.
 */
export async function signInAs(
  context: BrowserContext,
  email: string,
  fields: Parameters<typeof ensureUser>[1] = {},
) {
  const userId = await ensureUser(email, fields);
  const token = randomBytes(32).toString("base64url");
  const id = createHash("sha256").update(token).digest("hex");
  await query(
    "insert into sessions (id, user_id, expires_at) values ($1, $2, now() + interval '1 day')",
    [id, userId],
  );
  const value = (await cookie.serialize(token)).split(";")[0].split("=").slice(1).join("=");
  await context.addCookies([{ name: "__session", value, url: `http://localhost:${port}` }]);
  return userId;
}
