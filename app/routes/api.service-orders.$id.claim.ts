import { orderStepAction } from "~/http/order-step-action.server";
import { guardResourceAction } from "~/http/route-guards.server";
import type { ActionFunctionArgs } from "@remix-run/node";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

const act = orderStepAction("claim");
