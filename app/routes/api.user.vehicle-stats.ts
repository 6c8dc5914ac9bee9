import type { LoaderFunctionArgs } from "@remix-run/node";
import { listingStats } from "~/services/listings/listings.server";
import { requireUser } from "~/services/accounts/session.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** GET /api/user/vehicle-stats: {activeListings, totalListings, remainingFreeListings}. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await listingStats(user.id));
}
