import type { LoaderFunctionArgs } from "@remix-run/node";
import { listPendingDocuments } from "~/modules/kyc/kyc.server";
import { requireAdmin } from "~/modules/accounts/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await listPendingDocuments());
}
