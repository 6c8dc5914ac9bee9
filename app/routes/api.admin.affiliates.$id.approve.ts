import { affiliateReviewAction } from "~/http/affiliate-review-action.server";
import { guardResourceAction } from "~/http/route-guards.server";
import type { ActionFunctionArgs } from "@remix-run/node";

const act = affiliateReviewAction("approve");

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);
