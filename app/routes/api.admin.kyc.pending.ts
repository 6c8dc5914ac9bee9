import type { LoaderFunctionArgs } from "@remix-run/node";
import { listPendingDocuments } from "~/services/kyc.server";
import { requireAdmin } from "~/services/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await listPendingDocuments());
}
