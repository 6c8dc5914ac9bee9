// The one seam between memberships and the payments gateway: memberships never talk to a
// provider themselves. The default is wired to the shared payment orders (deposits' gateway).
import type { Transaction } from "sequelize";

export type CapturedPayment = {
  /** Our payment order's id. */
  paymentOrderId: string;
  /** What the provider says it captured: the only amount believed. */
  amount: string;
};

export interface MembershipCheckout {
  /** Creates an order at the provider; the payer approves it at `approvalUrl`. */
  createOrder(input: {
    userId: string;
    amount: string;
    description: string;
    returnPath: string;
    cancelPath: string;
  }): Promise<{ paymentOrderId: string; approvalUrl: string }>;
  /**
   * Captures the user's order (by the provider's id, the `token` the provider sends back) and,
   * once only, runs `onCaptured` inside the transaction that records the capture. Null when the
   * order is not this user's membership order. Throws when the capture fails.
   */
  settle(
    userId: string,
    providerOrderId: string,
    onCaptured: (payment: CapturedPayment, transaction: Transaction) => Promise<void>,
  ): Promise<{ paymentOrderId: string; settledNow: boolean } | null>;
  /** The payer turned back at the provider. Null when the order is not this user's. */
  cancel(userId: string, providerOrderId: string): Promise<{ paymentOrderId: string } | null>;
}

/** The provider could not create, capture or cancel a payment: nothing was bought. */
export class PaymentFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PaymentFailedError";
  }
}

/** The environment's checkout. Payments are not merged in yet: every payment fails cleanly. */
export function membershipCheckout(): MembershipCheckout {
  const unavailable = async (): Promise<never> => {
    throw new PaymentFailedError("The payments gateway is not wired in");
  };
  return { createOrder: unavailable, settle: unavailable, cancel: unavailable };
}
