import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { LICENCE_UPLOAD_PURPOSE } from "~/services/affiliates/rules";
import { requireUser } from "~/services/accounts/session.server";
import { confirmUpload, objectPathFor } from "~/platform/uploads.server";
import { jsonError } from "~/http/http.server";
import { readJsonBody } from "~/http/json-body.server";
import { errorJson } from "~/http/respond.server";
import { documentUrlSchema } from "~/services/kyc/schemas";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) =>
  guardResourceLoader(args, () => jsonError(405, "Use PUT"));

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/** After the browser's PUT of a licence document: checks the stored file, returns its objectPath. */
async function act({ request }: ActionFunctionArgs) {
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
