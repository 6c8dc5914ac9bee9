import type { LoaderFunctionArgs } from "@remix-run/node";
import { userMembership } from "~/services/memberships/memberships.server";
import { requireUser } from "~/services/accounts/session.server";

/** GET /api/user/membership: the signed-in user's membership. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await userMembership(user.id), {
    headers: { "Cache-Control": "private, no-store" },
  });
}
