import type { ActionFunctionArgs } from "@remix-run/node";
import { kycJsonError } from "~/services/kyc-errors.server";
import { requireUser } from "~/services/session.server";
import { confirmUpload, objectPathFor } from "~/services/uploads.server";
import { jsonError } from "~/utils/http.server";
import { parseJsonBody } from "~/utils/json-body.server";
import { documentUrlSchema } from "~/utils/schemas/kyc";

/** SPEC §7: after the browser's PUT, checks the stored file and returns its objectPath. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "PUT") return jsonError(405, "Use PUT");
  const { documentURL } = await parseJsonBody(request, documentUrlSchema);
  try {
    const upload = await confirmUpload(user.id, "kyc_document", documentURL);
    return Response.json({ objectPath: objectPathFor(upload.objectKey) });
  } catch (error) {
    return kycJsonError(error);
  }
}
