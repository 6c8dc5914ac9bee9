import type { LoaderFunctionArgs } from "@remix-run/node";
import { decodeCursor, searchUsers } from "~/modules/admin/admin.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { toPublicUser } from "~/modules/accounts/users.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const { users, next } = await searchUsers({
    search: url.searchParams.get("q") ?? undefined,
    after: decodeCursor(url.searchParams.get("after")),
    limit: Number(url.searchParams.get("limit")) || 25,
  });
  return Response.json({ users: users.map(toPublicUser), next });
}
