import { orderStepAction } from "~/http/order-step-action.server";

export const action = orderStepAction("complete");
