import type { LoaderFunctionArgs } from "@remix-run/node";
import { listPendingDocuments } from "~/services/kyc/kyc.server";
import { requireAdmin } from "~/services/accounts/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await listPendingDocuments());
}
