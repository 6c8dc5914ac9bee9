import { affiliateReviewAction } from "~/http/affiliate-review-action.server";
import { guardResourceAction } from "~/http/route-guards.server";
import type { ActionFunctionArgs } from "@remix-run/node";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

const act = affiliateReviewAction("reject");
