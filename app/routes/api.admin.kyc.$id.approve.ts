import type { ActionFunctionArgs } from "@remix-run/node";
import { approveDocument } from "~/services/kyc/kyc.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { errorJson } from "~/http/respond.server";
import { guardResourceAction } from "~/http/route-guards.server";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

async function act({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  if (request.method !== "POST") return jsonError(405, "Use POST");
  try {
    const { document } = await approveDocument(admin, params.id ?? "");
    return Response.json(document);
  } catch (error) {
    return errorJson(error);
  }
}
