import type { LoaderFunctionArgs } from "@remix-run/node";
import { getApplication, toPublicApplication } from "~/services/affiliates/applications.server";
import { requireUser } from "~/services/accounts/session.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** GET /api/affiliates/me: the user's application, or null when there is none. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const application = await getApplication(user.id);
  return Response.json(application ? toPublicApplication(application) : null);
}
