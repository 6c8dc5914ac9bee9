import type { LoaderFunctionArgs } from "@remix-run/node";
import { listPrelaunchSignups } from "~/services/admin/admin.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const before = new URL(request.url).searchParams.get("before");
  const signups = await listPrelaunchSignups({
    before: before && /^\d{1,18}$/.test(before) ? before : undefined,
    limit: 500,
  });
  return Response.json(
    signups.map((s) => ({
      id: s.id,
      email: s.email,
      firstName: s.firstName,
      lastName: s.lastName,
      source: s.source,
      createdAt: s.createdAt.toISOString(),
    })),
  );
}
