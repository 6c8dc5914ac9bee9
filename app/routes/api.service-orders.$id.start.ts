import { orderStepAction } from "~/http/order-step-action.server";
import { guardResourceAction } from "~/http/route-guards.server";
import type { ActionFunctionArgs } from "@remix-run/node";

const act = orderStepAction("start");

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);
