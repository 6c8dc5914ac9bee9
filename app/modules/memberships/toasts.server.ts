// What the membership screen and calls share: SPEC.md §8's messages.
import type { FlashToast } from "~/http/cookies.server";

export const SUBSCRIBED_TOAST: FlashToast = {
  title: "Subscription Started!",
  description: "Welcome to your new membership plan.",
  type: "success",
};

export const SUBSCRIBE_FAILED_TOAST: FlashToast = {
  title: "Error",
  description: "Failed to start subscription. Please try again.",
  type: "error",
};

export const TRIAL_STARTED_TOAST: FlashToast = {
  title: "Trial Started!",
  description: "Enjoy your free trial period.",
  type: "success",
};

export const TRIAL_FAILED_TOAST: FlashToast = {
  title: "Error",
  description: "Failed to start trial. Please try again.",
  type: "error",
};

export const RENEWED_TOAST: FlashToast = {
  title: "Membership Renewed",
  description: "Your next period is paid.",
  type: "success",
};

export const RENEW_FAILED_TOAST: FlashToast = {
  title: "Error",
  description: "Failed to renew your membership. Please try again.",
  type: "error",
};

export const PAYMENT_CANCELLED_TOAST: FlashToast = {
  title: "Payment Cancelled",
  description: "You cancelled the payment. Your membership has not changed.",
  type: "info",
};

export function cancelledToast(endsOn: string): FlashToast {
  return {
    title: "Membership Cancelled",
    description: `Your membership stays active until ${endsOn} and will not renew.`,
    type: "success",
  };
}

/** A refusal's own reason after SPEC.md's sentence, so the user knows what to do. */
export function withReason(toast: FlashToast, reason: string | undefined): FlashToast {
  return reason ? { ...toast, description: `${toast.description} ${reason}` } : toast;
}
