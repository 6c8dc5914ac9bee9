import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/services/accounts/session.server";
import { toPublicUser } from "~/services/accounts/users.server";
import { jsonError } from "~/http/http.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** The signed-in user as `PublicUser` (no OIDC subject) or 401. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (!user) return jsonError(401, "Unauthorized");
  return Response.json(toPublicUser(user), {
    headers: { "Cache-Control": "private, no-store", Vary: "Cookie" },
  });
}
