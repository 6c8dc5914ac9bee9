// GET /api/vehicles answers two queries: auction lots when the call carries auctionHouse,
// damageType, location or status (the auction client always sends status), community listings
// otherwise. POST /api/vehicles posts a community listing (→ id).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { isAuctionQuery, readAuctionQuery, searchLots } from "~/modules/auctions/lots.server";
import { requireUser } from "~/modules/accounts/session.server";
import { errorJson } from "~/http/respond.server";
import {
  communityVehiclesResponse,
  postVehicleResponse,
} from "~/modules/listings/listings-http.server";

export function loader({ request }: LoaderFunctionArgs) {
  return isAuctionQuery(new URL(request.url).searchParams)
    ? auctionVehiclesResponse(request)
    : communityVehiclesResponse(request);
}

export const action = ({ request }: ActionFunctionArgs) => postVehicleResponse(request);

/** The auction lots as a list, the total in X-Total-Count, the next keyset page in Link. */
async function auctionVehiclesResponse(request: Request) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  try {
    const page = await searchLots(readAuctionQuery(url.searchParams), user.id);
    const headers = new Headers({ "X-Total-Count": String(page.total) });
    if (page.nextCursor) {
      url.searchParams.set("cursor", page.nextCursor);
      headers.set("Link", `<${url.pathname}${url.search}>; rel="next"`);
    }
    return Response.json(page.vehicles, { headers });
  } catch (error) {
    return errorJson(error);
  }
}
