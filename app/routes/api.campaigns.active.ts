import { listActiveCampaigns } from "~/modules/memberships/memberships.server";

/** GET /api/campaigns/active: campaigns running now. */
export async function loader() {
  return Response.json(await listActiveCampaigns());
}
