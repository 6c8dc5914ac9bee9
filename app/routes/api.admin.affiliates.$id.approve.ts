import type { ActionFunctionArgs } from "@remix-run/node";
import {
  AffiliateError,
  reviewApplication,
  toPublicApplication,
} from "~/modules/affiliates/applications.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { ReviewApplicationSchema } from "~/modules/affiliates/schemas";

/** POST /api/admin/affiliates/{id}/approve: admins only; the applicant is notified. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const admin = await requireAdmin(request);
  const id = params.id ?? "";
  if (!/^\d{1,18}$/.test(id)) return jsonError(404, "Application not found");
  const body = request.headers.get("content-type")?.includes("application/json")
    ? await request.json().catch(() => ({}))
    : {};
  const parsed = ReviewApplicationSchema.safeParse({ ...body, decision: "approve" });
  if (!parsed.success) return jsonError(400, parsed.error.issues[0].message);
  try {
    const application = await reviewApplication(admin, id, parsed.data);
    return Response.json(toPublicApplication(application));
  } catch (error) {
    if (error instanceof AffiliateError) return jsonError(error.status, error.message);
    throw error;
  }
}
