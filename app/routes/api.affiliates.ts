import type { ActionFunctionArgs } from "@remix-run/node";
import { submitApplication, toPublicApplication } from "~/services/affiliates/applications.server";
import { requireUser } from "~/services/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { readJson } from "~/http/json-body.server";
import { errorJson } from "~/http/respond.server";
import { AffiliateApplicationSchema } from "~/services/affiliates/schemas";
import { guardResourceAction } from "~/http/route-guards.server";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/**
 * POST /api/affiliates: files the user's one affiliate application (JSON, serviceAreas a list).
 * A refusal names the first problem and carries one message per field in `fieldErrors`.
 */
async function act({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const user = await requireUser(request);
  const parsed = AffiliateApplicationSchema.safeParse(await readJson(request));
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return jsonError(400, Object.values(fieldErrors)[0] ?? "Invalid application", { fieldErrors });
  }
  try {
    const application = await submitApplication(user.id, parsed.data);
    return Response.json(toPublicApplication(application), { status: 201 });
  } catch (error) {
    return errorJson(error);
  }
}
