import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { rejectDocument } from "~/services/kyc/kyc.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { errorJson } from "~/http/respond.server";
import { readJsonBody } from "~/http/json-body.server";
import { rejectReasonSchema } from "~/services/kyc/schemas";
import { guardResourceAction } from "~/http/route-guards.server";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

async function act({ request, params }: ActionFunctionArgs) {
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
