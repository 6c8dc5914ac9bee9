// GET /api/vehicles answers both query sets of SPEC.md §7: the auction set when the call carries
// auctionHouse, damageType, location or status (the auction client always sends status), the
// community set otherwise. POST /api/vehicles posts a community listing (→ id).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { auctionVehiclesResponse, isAuctionQuery } from "~/modules/auctions/lots-http.server";
import {
  communityVehiclesResponse,
  postVehicleResponse,
} from "~/modules/listings/listings-http.server";

export function loader({ request }: LoaderFunctionArgs) {
  return isAuctionQuery(new URL(request.url))
    ? auctionVehiclesResponse(request)
    : communityVehiclesResponse(request);
}

export const action = ({ request }: ActionFunctionArgs) => postVehicleResponse(request);
