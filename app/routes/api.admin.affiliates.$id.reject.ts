import { affiliateReviewAction } from "~/http/affiliate-review-action.server";

export const action = affiliateReviewAction("reject");
