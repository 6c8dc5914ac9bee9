// The auction list's live stream: the cards' lots, as server-sent events (docs/decisions/1801).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/accounts/session.server";
import { openListStream, parseListLots } from "~/services/auctions/live.server";
import { guardResourceLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);
export const handle = replicaReads;

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const lots = parseListLots(new URL(request.url).searchParams.get("lots"));
  if (!lots) {
    throw new Response("Name the lots to follow: ?lots=1,2,3 (at most a page of them).", {
      status: 400,
    });
  }
  // none of them exist: 204 tells the browser's EventSource to stop asking
  return (await openListStream(request, user.id, lots)) ?? new Response(null, { status: 204 });
}
