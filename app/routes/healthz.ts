import { databaseIsUp } from "~/platform/availability.server";

export async function loader() {
  const up = await databaseIsUp();
  return new Response(up ? "OK" : "Database unavailable", {
    status: up ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
