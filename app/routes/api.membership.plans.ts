import { listPlans } from "~/services/memberships/memberships.server";

/** GET /api/membership/plans: the plans on offer, free tier first. */
export async function loader() {
  return Response.json(await listPlans());
}
