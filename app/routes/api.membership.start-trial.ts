import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { jsonError } from "~/http/http.server";
import { readJsonBody } from "~/http/json-body.server";
import { errorJson } from "~/http/respond.server";
import { requireUser } from "~/services/accounts/session.server";
import { startTrial } from "~/services/memberships/memberships.server";
import { TRIAL_FAILED, TRIAL_STARTED_TOAST } from "~/services/memberships/messages";
import { startTrialSchema } from "~/services/memberships/schemas";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) =>
  guardResourceLoader(args, () => jsonError(405, "Use POST"));

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/** POST /api/membership/start-trial {planId, campaignId}: a refusal reads "headline + reason". */
async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return jsonError(405, "Use POST");
  const input = await readJsonBody(request, startTrialSchema);
  try {
    const membership = await startTrial(user.id, input);
    return Response.json(
      {
        title: TRIAL_STARTED_TOAST.title,
        message: TRIAL_STARTED_TOAST.description,
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
    return errorJson(error, { prefix: TRIAL_FAILED });
  }
}
