// What the membership screen, its calls and the payment return pages say to the user. Plain data,
// importable by the browser and the server: the page's toasts and the JSON answers share these
// sentences, so a wording changes in one place.

/** The shape of a flash toast (app/http/cookies.server.ts carries it across a redirect). */
export type MembershipToast = {
  title: string;
  description: string;
  type: "success" | "error" | "info";
};

export const SUBSCRIBE_FAILED = "Failed to start subscription. Please try again.";
export const TRIAL_FAILED = "Failed to start trial. Please try again.";
export const RENEW_FAILED = "Failed to renew your membership. Please try again.";

export const SUBSCRIBED_TOAST: MembershipToast = {
  title: "Subscription Started!",
  description: "Welcome to your new membership plan.",
  type: "success",
};

export const SUBSCRIBE_FAILED_TOAST: MembershipToast = {
  title: "Error",
  description: SUBSCRIBE_FAILED,
  type: "error",
};

export const TRIAL_STARTED_TOAST: MembershipToast = {
  title: "Trial Started!",
  description: "Enjoy your free trial period.",
  type: "success",
};

export const TRIAL_FAILED_TOAST: MembershipToast = {
  title: "Error",
  description: TRIAL_FAILED,
  type: "error",
};

export const RENEWED_TOAST: MembershipToast = {
  title: "Membership Renewed",
  description: "Your next period is paid.",
  type: "success",
};

export const RENEW_FAILED_TOAST: MembershipToast = {
  title: "Error",
  description: RENEW_FAILED,
  type: "error",
};

export const PAYMENT_CANCELLED_TOAST: MembershipToast = {
  title: "Payment Cancelled",
  description: "You cancelled the payment. Your membership has not changed.",
  type: "info",
};

export function cancelledToast(endsOn: string): MembershipToast {
  return {
    title: "Membership Cancelled",
    description: `Your membership stays active until ${endsOn} and will not renew.`,
    type: "success",
  };
}

/** A checkout for a period already paid (record 3501): "You already pay for Basic until ...". */
export function alreadyPaidToast(message: string): MembershipToast {
  return { title: "Already paid", description: message, type: "info" };
}

/** A refusal the user can act on only as itself: "You have no membership to cancel." */
export function errorToast(message: string): MembershipToast {
  return { title: "Error", description: message, type: "error" };
}

/**
 * A failed step's toast. A refusal (4xx) adds its own reason after the headline, so the user
 * knows what to do; a provider failure (5xx) has nothing to add to "Please try again".
 */
export function failureToast(
  toast: MembershipToast,
  error: { status: number; message: string },
): MembershipToast {
  return error.status < 500
    ? { ...toast, description: `${toast.description} ${error.message}` }
    : toast;
}

/** What a PaymentFailedError tells the user: the provider failed, not the user. */
export const PAYMENT_NOT_COMPLETED = "The payment provider did not complete the payment.";
