// The lot page's live stream: server-sent events (docs/decisions/1801).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/accounts/session.server";
import { openLotStream } from "~/services/auctions/live.server";
import { guardResourceLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);
export const handle = replicaReads;

async function load({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const stream = await openLotStream(request, user.id, params.lotId ?? "");
  if (!stream) throw new Response("This auction lot does not exist.", { status: 404 });
  return stream;
}
