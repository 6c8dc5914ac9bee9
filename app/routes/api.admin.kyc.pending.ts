import type { LoaderFunctionArgs } from "@remix-run/node";
import { listPendingDocuments } from "~/services/kyc/kyc.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await listPendingDocuments());
}
