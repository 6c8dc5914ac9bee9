import type { ActionFunctionArgs } from "@remix-run/node";
import { approveDocument } from "~/services/kyc.server";
import { kycJsonError } from "~/services/kyc-errors.server";
import { requireAdmin } from "~/services/session.server";
import { jsonError } from "~/utils/http.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  if (request.method !== "POST") return jsonError(405, "Use POST");
  try {
    const { document } = await approveDocument(admin, params.id ?? "");
    return Response.json(document);
  } catch (error) {
    return kycJsonError(error);
  }
}
