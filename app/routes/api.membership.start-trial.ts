import type { ActionFunctionArgs } from "@remix-run/node";
import { membershipErrorResponse, readJsonBody } from "~/services/membership-api.server";
import { startTrial } from "~/services/memberships.server";
import { requireUser } from "~/services/session.server";
import { jsonError } from "~/utils/http.server";
import { startTrialSchema } from "~/utils/schemas/memberships";

const FAILED = "Failed to start trial. Please try again.";

export const loader = () => jsonError(405, "Use POST");

/** POST /api/membership/start-trial {planId, campaignId} (SPEC.md §7). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return jsonError(405, "Use POST");
  const input = await readJsonBody(request, startTrialSchema);
  try {
    const membership = await startTrial(user.id, input);
    return Response.json(
      {
        title: "Trial Started!",
        message: "Enjoy your free trial period.",
        membership: {
          planId: membership.planId,
          planName: membership.planName,
          status: membership.status,
          currentPeriodEnd: membership.currentPeriodEnd.toISOString(),
        },
      },
      { status: 201 },
    );
  } catch (error) {
    return membershipErrorResponse(error, FAILED);
  }
}
