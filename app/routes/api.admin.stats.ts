import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminStats } from "~/services/admin-stats.server";
import { requireAdmin } from "~/services/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await adminStats(), { headers: { "Cache-Control": "private, no-store" } });
}
