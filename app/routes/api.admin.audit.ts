import type { LoaderFunctionArgs } from "@remix-run/node";
import { listAuditEntries } from "~/services/admin/audit.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const before = new URL(request.url).searchParams.get("before");
  const entries = await listAuditEntries({
    before: before && /^\d{1,18}$/.test(before) ? before : undefined,
  });
  return Response.json(entries.map((entry) => entry.get({ plain: true })));
}
