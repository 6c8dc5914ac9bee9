import type { LoaderFunctionArgs } from "@remix-run/node";
import { decodeCursor, searchUsers } from "~/services/admin/admin.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { toPublicUser } from "~/services/accounts/users.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const { users, next } = await searchUsers({
    search: url.searchParams.get("q") ?? undefined,
    after: decodeCursor(url.searchParams.get("after")),
    limit: Number(url.searchParams.get("limit")) || 25,
  });
  return Response.json({ users: users.map(toPublicUser), next });
}
