import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { rejectDocument } from "~/services/kyc.server";
import { kycJsonError } from "~/services/kyc-errors.server";
import { requireAdmin } from "~/services/session.server";
import { jsonError } from "~/utils/http.server";
import { parseJsonBody } from "~/utils/json-body.server";
import { rejectReasonSchema } from "~/utils/schemas/kyc";

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  if (request.method !== "POST") return jsonError(405, "Use POST");
  const { reason } = await parseJsonBody(request, z.object({ reason: rejectReasonSchema }));
  try {
    const { document } = await rejectDocument(admin, params.id ?? "", reason);
    return Response.json(document);
  } catch (error) {
    return kycJsonError(error);
  }
}
