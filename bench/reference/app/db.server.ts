// One pg pool, as a small Remix app would have it.
import { createHash } from "node:crypto";
import { createCookie } from "@remix-run/node";
import pg from "pg";

export const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

// BidYard's session cookie, read the way it is written, so the bench's sign-ins work here too.
const sessionCookie = createCookie("__session", {
  secrets: [process.env.SESSION_SECRET ?? "reference"],
});

export type User = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: string;
  accountType: string;
  deposit: string;
  verified: boolean;
  createdAt: Date;
  timeZone: string;
};

/** The signed-in user: one query, the session and its user joined. */
export async function getUser(request: Request): Promise<User | null> {
  const token = await sessionCookie.parse(request.headers.get("cookie"));
  if (typeof token !== "string" || !token) return null;
  const { rows } = await pool.query<User>(
    `SELECT u.id, u.email, u.first_name AS "firstName", u.last_name AS "lastName", u.role,
            u.account_type AS "accountType", u.deposit, u.verified, u.created_at AS "createdAt",
            u.time_zone AS "timeZone"
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id = $1 AND s.expires_at > now()`,
    [createHash("sha256").update(token).digest("hex")],
  );
  return rows[0] ?? null;
}
