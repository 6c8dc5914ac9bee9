import type { LoaderFunctionArgs } from "@remix-run/node";
import { auctionVehiclesResponse } from "~/services/auctions-api.server";

// The auction query set for now; the community work adds its query set here, choosing between
// them with isAuctionQuery(url) from ~/services/auctions-api.server.
export async function loader({ request }: LoaderFunctionArgs) {
  return auctionVehiclesResponse(request);
}
