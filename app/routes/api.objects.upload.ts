import type { ActionFunctionArgs } from "@remix-run/node";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/services/accounts/session.server";
import { isUploadPurpose, issueUpload } from "~/platform/uploads.server";
import { jsonError } from "~/http/http.server";
import { errorJson } from "~/http/respond.server";
import { readJsonBody } from "~/http/json-body.server";
import { uploadRequestSchema } from "~/services/kyc/schemas";
import { guardResourceAction } from "~/http/route-guards.server";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/**
 * Returns an uploadURL for one PUT, bound to the file's exact size and content type and to its
 * owner (docs/decisions/0302-uploads-bound-to-owner.md).
 */
async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return jsonError(405, "Use POST");
  await consumeRateLimit(request, "upload", user.id);
  const input = await readJsonBody(request, uploadRequestSchema);
  const purpose = input.purpose ?? "kyc_document";
  if (!isUploadPurpose(purpose)) return jsonError(400, "Unknown upload purpose.");
  try {
    const { target } = await issueUpload(user.id, purpose, input);
    return Response.json({
      uploadURL: target.url,
      method: target.method,
      headers: target.headers,
      expiresAt: target.expiresAt.toISOString(),
    });
  } catch (error) {
    return errorJson(error);
  }
}
