import type { ActionFunctionArgs } from "@remix-run/node";
import { kycJsonError } from "~/modules/kyc/errors-http.server";
import { requireUser } from "~/modules/accounts/session.server";
import { confirmUpload, objectPathFor } from "~/platform/uploads.server";
import { jsonError } from "~/http/http.server";
import { readJsonBody } from "~/http/json-body.server";
import { documentUrlSchema } from "~/modules/kyc/schemas";

/** SPEC §7: after the browser's PUT, checks the stored file and returns its objectPath. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "PUT") return jsonError(405, "Use PUT");
  const { documentURL } = await readJsonBody(request, documentUrlSchema);
  try {
    const upload = await confirmUpload(user.id, "kyc_document", documentURL);
    return Response.json({ objectPath: objectPathFor(upload.objectKey) });
  } catch (error) {
    return kycJsonError(error);
  }
}
