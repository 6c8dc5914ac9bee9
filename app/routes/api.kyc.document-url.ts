import type { ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/accounts/session.server";
import { confirmUpload, objectPathFor } from "~/platform/uploads.server";
import { jsonError } from "~/http/http.server";
import { errorJson } from "~/http/respond.server";
import { readJsonBody } from "~/http/json-body.server";
import { documentUrlSchema } from "~/services/kyc/schemas";
import { guardResourceAction } from "~/http/route-guards.server";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/**
 * After the browser's PUT: checks the stored file (owner, size, type, first bytes) and returns its
 * objectPath (docs/decisions/0302-uploads-bound-to-owner.md).
 */
async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "PUT") return jsonError(405, "Use PUT");
  const { documentURL } = await readJsonBody(request, documentUrlSchema);
  try {
    const upload = await confirmUpload(user.id, "kyc_document", documentURL);
    return Response.json({ objectPath: objectPathFor(upload.objectKey) });
  } catch (error) {
    return errorJson(error);
  }
}
