// GET /api/vehicles (the community query set of SPEC.md §7) and POST /api/vehicles (→ id).
// The auction query set of GET /api/vehicles is built on another branch (auctionVehiclesResponse);
// the merged loader picks the set the query carries.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { communityVehiclesResponse, postVehicleResponse } from "~/services/listings-api.server";

export const loader = ({ request }: LoaderFunctionArgs) => communityVehiclesResponse(request);

export const action = ({ request }: ActionFunctionArgs) => postVehicleResponse(request);
