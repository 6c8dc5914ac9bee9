import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminStats } from "~/services/admin/admin.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await adminStats());
}
