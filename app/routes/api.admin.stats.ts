import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminStats } from "~/services/admin/admin.server";
import { requireAdmin } from "~/services/accounts/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await adminStats());
}
