import { listActiveCampaigns } from "~/services/memberships/memberships.server";

/** GET /api/campaigns/active: campaigns running now. */
export async function loader() {
  return Response.json(await listActiveCampaigns());
}
