import { listActiveCampaigns } from "~/services/memberships/memberships.server";
import { guardResourceLoader } from "~/http/route-guards.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);
export const handle = replicaReads;

/** GET /api/campaigns/active: campaigns running now. */
async function load() {
  return Response.json(await listActiveCampaigns());
}
