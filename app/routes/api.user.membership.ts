import type { LoaderFunctionArgs } from "@remix-run/node";
import { userMembership } from "~/services/memberships/memberships.server";
import { requireUser } from "~/services/accounts/session.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** GET /api/user/membership: the signed-in user's membership. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await userMembership(user.id), {
    headers: { "Cache-Control": "private, no-store" },
  });
}
