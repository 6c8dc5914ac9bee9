import type { ActionFunctionArgs } from "@remix-run/node";
import { LICENCE_UPLOAD_PURPOSE } from "~/services/affiliates/rules";
import { requireUser } from "~/services/accounts/session.server";
import { confirmUpload, objectPathFor } from "~/platform/uploads.server";
import { jsonError } from "~/http/http.server";
import { readJsonBody } from "~/http/json-body.server";
import { errorJson } from "~/http/respond.server";
import { documentUrlSchema } from "~/services/kyc/schemas";

export const loader = () => jsonError(405, "Use PUT");

/** After the browser's PUT of a licence document: checks the stored file, returns its objectPath. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return jsonError(405, "Use PUT");
  const user = await requireUser(request);
  const { documentURL } = await readJsonBody(request, documentUrlSchema);
  try {
    const upload = await confirmUpload(user.id, LICENCE_UPLOAD_PURPOSE, documentURL);
    return Response.json({ objectPath: objectPathFor(upload.objectKey) });
  } catch (error) {
    return errorJson(error);
  }
}
