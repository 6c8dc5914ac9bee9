import { pool } from "../db.server";

// A resource route with one query, as BidYard's /healthz.
export async function loader() {
  await pool.query("select 1");
  return new Response("OK", {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
