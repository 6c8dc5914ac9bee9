// GET /live/lots/:lotId/state: the lot page's moving parts in one read (docs/decisions/2752),
// fetched by the page after each live event so its price, history, leader panel and buying power
// come from the same moment.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/accounts/session.server";
import { lotView } from "~/services/auctions/lot-view.server";
import { guardResourceLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);
export const handle = replicaReads;

async function load({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const view = await lotView(params.lotId ?? "", user.id);
  if (!view) throw new Response("This auction lot does not exist.", { status: 404 });
  return Response.json(view.state, { headers: { "Cache-Control": "no-store" } });
}
