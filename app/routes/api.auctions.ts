import type { LoaderFunctionArgs } from "@remix-run/node";
import { readAuctionQuery, searchLots } from "~/services/auctions/lots.server";
import { requireUser } from "~/services/accounts/session.server";
import { errorJson } from "~/http/respond.server";
import { guardResourceLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);
export const handle = replicaReads;

/** GET /api/auctions: one keyset page of lots with the total and the next cursor. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const query = readAuctionQuery(new URL(request.url).searchParams);
    return Response.json(await searchLots(query, user.id));
  } catch (error) {
    return errorJson(error);
  }
}
