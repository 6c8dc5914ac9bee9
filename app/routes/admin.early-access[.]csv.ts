import type { LoaderFunctionArgs } from "@remix-run/node";
import { prelaunchSignupsCsv } from "~/services/admin/admin.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  // In the admin's zone, as the Early Access tab shows the dates (record 3332).
  const csv = await prelaunchSignupsCsv(admin.timeZone);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="bidyard-early-access-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
