import type { LoaderFunctionArgs } from "@remix-run/node";
import { listingStats } from "~/services/listings/listings.server";
import { requireUser } from "~/services/accounts/session.server";

/** GET /api/user/vehicle-stats: {activeListings, totalListings, remainingFreeListings}. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await listingStats(user.id));
}
