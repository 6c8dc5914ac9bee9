import { AffiliateError } from "~/modules/affiliates/applications.server";
import {
  advanceOrder,
  claimOrder,
  toPublicOrder,
} from "~/modules/affiliates/service-orders.server";
import type { User } from "~/models/user.server";
import type { FlashToast } from "~/http/cookies.server";

export type OrderStep = "claim" | "start" | "complete";

const SUCCESS: Record<OrderStep, FlashToast> = {
  claim: {
    title: "Order Claimed",
    description: "You have successfully claimed this service order.",
    type: "success",
  },
  start: {
    title: "Service Started",
    description: "The order is now in progress.",
    type: "success",
  },
  complete: {
    title: "Order Completed",
    description: "The order is marked complete. Your payout is on its way.",
    type: "success",
  },
};

/** "Title: description" messages become a toast; others get a generic title. */
export function toastFromError(error: AffiliateError): FlashToast {
  const split = error.message.indexOf(": ");
  if (split > 0 && split < 40)
    return {
      title: error.message.slice(0, split),
      description: error.message.slice(split + 2),
      type: "error",
    };
  return { title: "Could not update the order", description: error.message, type: "error" };
}

/** Runs one step of an order for a user: the outcome as a toast and, on success, the order. */
export async function runOrderStep(user: User, orderId: string, step: OrderStep) {
  try {
    const order =
      step === "claim"
        ? await claimOrder(user.id, orderId)
        : await advanceOrder(user.id, orderId, step);
    return {
      ok: true as const,
      status: 200,
      order: toPublicOrder(order, user),
      toast: SUCCESS[step],
    };
  } catch (error) {
    if (!(error instanceof AffiliateError)) throw error;
    return {
      ok: false as const,
      status: error.status,
      message: error.message,
      toast: toastFromError(error),
    };
  }
}

/** The JSON answer of POST /api/service-orders/{id}/{step}. */
export async function orderStepJson(user: User, orderId: string, step: OrderStep) {
  const result = await runOrderStep(user, orderId, step);
  if (!result.ok)
    return Response.json(
      { error: result.message, message: result.message },
      { status: result.status },
    );
  const message = `${result.toast.title}: ${result.toast.description}`;
  return Response.json({ order: result.order, message });
}
