import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/services/accounts/session.server";
import { toPublicUser } from "~/services/accounts/users.server";
import { jsonError } from "~/http/http.server";

/** The signed-in user as `PublicUser` (no OIDC subject) or 401. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (!user) return jsonError(401, "Unauthorized");
  return Response.json(toPublicUser(user), {
    headers: { "Cache-Control": "private, no-store", Vary: "Cookie" },
  });
}
