import type { ActionFunctionArgs } from "@remix-run/node";
import { approveDocument } from "~/services/kyc.server";
import { kycJsonError } from "~/services/service-errors.server";
import { requireAdmin } from "~/services/session.server";
import { jsonError } from "~/utils/http.server";

export const loader = () => jsonError(405, "Use POST");

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Use POST");
  const admin = await requireAdmin(request);
  try {
    const { document } = await approveDocument(admin, params.id ?? "");
    return Response.json(document);
  } catch (error) {
    return kycJsonError(error);
  }
}
