// What the affiliate programme says to people, in one place for the server and the browser.
// "Title: description" messages are shown as a toast with that title.
import type { OrderStep } from "./rules";

export const APPLICATION_MESSAGES = {
  companyName: "Company name is required",
  serviceTypes: "Select at least one service type",
  businessPhone: "Business phone is required",
  businessEmail: "Valid business email is required",
  serviceAreas: "Service areas are required",
  agreeToTerms: "You must agree to the terms",
} as const;

/** A business phone that is not a phone number ("call me maybe"). */
export const BUSINESS_PHONE_FORMAT = "Enter a phone number, like 214-555-0100";

export const ALREADY_APPLIED =
  "You have already applied to the affiliate programme. One application per account.";
export const APPROVAL_REQUIRED =
  "Affiliate Approval Required: You need to be an approved affiliate to claim service orders.";

export const LICENCE_UPLOADED =
  "Document Uploaded: Your business documentation has been uploaded successfully.";
export const LICENCE_FAILED = "Upload Error: Failed to process document upload. Please try again.";
/** A file that no retry can make pass (its size, its type, its content): the reason follows. */
export const LICENCE_REFUSED = "Upload Error: This file cannot be used.";
/** The application waits while a chosen document failed or is still on its way. */
export const LICENCE_BLOCKS = {
  failed:
    "Your document did not upload. Choose a PDF, JPG or PNG file of up to 10 MB, or remove the file to apply without one.",
  uploading: "Wait for your document to finish uploading.",
} as const;

export const CLAIM_FAILED =
  "Failed to Claim: Failed to claim service order. It may have been claimed by another provider.";
export const ORDER_NOT_FOUND = "Service order not found";
export const OWN_ORDER =
  "Not Your Job: This is your own transport request; an approved provider will claim it.";

/** Paying for a buyer's transport job (docs/decisions/1751). */
export const TRANSPORT_MESSAGES = {
  alreadyPaid: "Already Paid: This transport order has already been paid.",
  nothingToPay: "Nothing to Pay: This order is not waiting for a payment.",
  priceChanged:
    "Price Changed: The price you confirmed is not this order's price. Review the quote and confirm again.",
  providerFailed:
    "Payment Error: The payment could not be completed. Nothing was charged; please try again.",
  unknownCheckout: "Payment not found: This checkout is not one of yours.",
  replacedCheckout:
    "Payment Replaced: A newer checkout was started for this order; this one was not charged.",
  busy: "Payment in Progress: This order is being paid in another window. Refresh the page in a moment.",
  refundedCapture:
    "Payment Refunded: This payment did not match the order's price, so it was refunded to you. Your order is waiting for payment.",
  cancelled: "Payment Cancelled: Nothing was charged. Your order is waiting for payment.",
  depositShort:
    "Deposit Too Low: What your deposit has free no longer covers this price. Nothing was charged; pay through the payment provider instead.",
  chooseSource: "Choose how to pay: from your deposit or through the payment provider.",
  paidFromDeposit: "Transport Paid: Paid from your deposit. Providers can now claim your job.",
  paidByGateway: "Transport Paid: Payment received. Providers can now claim your job.",
  lotNotYours:
    "That lot is not one of your paid vehicles, so nothing was preselected. Choose one of yours below.",
} as const;

/** What each step says when it worked (a toast on the page, "title: description" in JSON). */
export const ORDER_STEP_DONE: Record<OrderStep, { title: string; description: string }> = {
  claim: {
    title: "Order Claimed",
    description: "You have successfully claimed this service order.",
  },
  start: {
    title: "Service Started",
    description: "The order is now in progress.",
  },
  complete: {
    title: "Order Completed",
    description: "The order is marked complete. Your payout is on its way.",
  },
};

/** A "Title: description" message split for a toast; others get `fallbackTitle`. */
export function messageAsToast(message: string, fallbackTitle: string) {
  const split = message.indexOf(": ");
  if (split > 0 && split < 40)
    return { title: message.slice(0, split), description: message.slice(split + 2) };
  return { title: fallbackTitle, description: message };
}
