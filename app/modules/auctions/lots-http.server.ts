import { searchLots } from "~/modules/auctions/lots.server";
import { requireUser } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { AuctionQuerySchema } from "~/modules/auctions/schemas";

/** Query parameters that only the auction query set uses (SPEC.md §7); its client always sends status. */
const AUCTION_ONLY_PARAMS = ["auctionHouse", "damageType", "location", "status"];

/** True when a GET /api/vehicles call is the auction query rather than the community one. */
export function isAuctionQuery(url: URL) {
  return AUCTION_ONLY_PARAMS.some((name) => url.searchParams.has(name));
}

async function parsedQuery(request: Request) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const parsed = AuctionQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw jsonError(400, `Invalid query: ${issue.path.join(".")}: ${issue.message}`);
  }
  return { query: parsed.data, user };
}

/** GET /api/auctions: one keyset page with the total and the next cursor. */
export async function auctionsPageResponse(request: Request) {
  const { query, user } = await parsedQuery(request);
  return Response.json(await searchLots(query, user.id));
}

/**
 * GET /api/vehicles with the auction parameters: the list of vehicles (SPEC.md §7), with the
 * total in X-Total-Count and the next keyset page in a Link header.
 */
export async function auctionVehiclesResponse(request: Request) {
  const { query, user } = await parsedQuery(request);
  const page = await searchLots(query, user.id);
  const headers = new Headers({ "X-Total-Count": String(page.total) });
  if (page.nextCursor) {
    const next = new URL(request.url);
    next.searchParams.set("cursor", page.nextCursor);
    headers.set("Link", `<${next.pathname}${next.search}>; rel="next"`);
  }
  return Response.json(page.vehicles, { headers });
}
