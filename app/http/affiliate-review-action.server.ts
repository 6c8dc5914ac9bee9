// POST /api/admin/affiliates/{id}/approve and /reject (with {reason}): one action, two URLs.
// Admins only; the applicant is notified.
import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { requireAdmin } from "~/services/accounts/session.server";
import { reviewApplication, toPublicApplication } from "~/services/affiliates/applications.server";
import { ReviewApplicationSchema } from "~/services/affiliates/schemas";
import { readJsonBody } from "./json-body.server";
import { errorJson, jsonError } from "./respond.server";

export function affiliateReviewAction(decision: "approve" | "reject") {
  return async function action({ request, params }: ActionFunctionArgs) {
    if (request.method !== "POST") return jsonError(405, "Method not allowed");
    const admin = await requireAdmin(request);
    const id = params.id ?? "";
    if (!/^\d{1,18}$/.test(id)) return jsonError(404, "Application not found");
    try {
      // The decision comes from the URL, never from the body.
      const review = await readJsonBody(
        request,
        z.preprocess((body) => ({ ...(body as object), decision }), ReviewApplicationSchema),
      );
      const application = await reviewApplication(admin, id, review);
      return Response.json(toPublicApplication(application));
    } catch (error) {
      // the body reader's refusal is thrown as its answer
      return error instanceof Response ? error : errorJson(error);
    }
  };
}
