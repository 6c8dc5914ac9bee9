import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listDocuments, submitDocument } from "~/services/kyc/kyc.server";
import { requireUser } from "~/services/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { errorJson } from "~/http/respond.server";
import { readJsonBody } from "~/http/json-body.server";
import { submitDocumentSchema } from "~/services/kyc/schemas";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** The signed-in user's own documents, newest (current) first. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await listDocuments(user.id));
}

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return jsonError(405, "Use POST");
  const input = await readJsonBody(request, submitDocumentSchema);
  try {
    const document = await submitDocument(user, {
      documentType: input.documentType,
      objectPath: input.documentUrl,
    });
    return Response.json(document, { status: 201 });
  } catch (error) {
    return errorJson(error);
  }
}
