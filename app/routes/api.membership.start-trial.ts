import type { ActionFunctionArgs } from "@remix-run/node";
import {
  membershipErrorResponse,
  readJsonBody,
} from "~/modules/memberships/memberships-http.server";
import { startTrial } from "~/modules/memberships/memberships.server";
import { requireUser } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { startTrialSchema } from "~/modules/memberships/schemas";

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
