import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  applicationStatusFrom,
  listApplications,
  toPublicApplication,
} from "~/services/affiliates/applications.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** GET /api/admin/affiliates?status=pending: applications with their applicant, admins only. */
async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const status = new URL(request.url).searchParams.get("status");
  const applications = await listApplications(applicationStatusFrom(status));
  return Response.json(
    applications.map((application) => ({
      ...toPublicApplication(application),
      user: application.applicant
        ? {
            id: application.applicant.id,
            email: application.applicant.email,
            firstName: application.applicant.firstName,
            lastName: application.applicant.lastName,
          }
        : null,
    })),
  );
}
