import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { rejectDocument } from "~/modules/kyc/kyc.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { errorJson } from "~/http/respond.server";
import { readJsonBody } from "~/http/json-body.server";
import { rejectReasonSchema } from "~/modules/kyc/schemas";

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  if (request.method !== "POST") return jsonError(405, "Use POST");
  const { reason } = await readJsonBody(request, z.object({ reason: rejectReasonSchema }));
  try {
    const { document } = await rejectDocument(admin, params.id ?? "", reason);
    return Response.json(document);
  } catch (error) {
    return errorJson(error);
  }
}
