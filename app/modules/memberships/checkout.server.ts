// The one seam between memberships and the payments gateway: memberships never talk to a
// provider themselves. The default goes through the shared payment orders (payments.server).
import type { Transaction } from "sequelize";
import { PaymentGatewayError } from "~/platform/payments/index.server";
import {
  cancelPaymentOrder,
  createPaymentOrder,
  findUserPaymentOrder,
  settlePaymentOrder,
} from "~/modules/deposits/payments.server";

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

function failed(error: unknown): never {
  if (error instanceof PaymentGatewayError) throw new PaymentFailedError(error.message);
  throw error;
}

/** The environment's checkout: the shared payment orders over PayPal or the TEST MODE gateway. */
export function membershipCheckout(): MembershipCheckout {
  return {
    async createOrder(input) {
      try {
        const { order, approvalUrl } = await createPaymentOrder({
          ...input,
          purpose: "membership",
        });
        return { paymentOrderId: order.id, approvalUrl };
      } catch (error) {
        return failed(error);
      }
    },

    async settle(userId, providerOrderId, onCaptured) {
      const order = await findUserPaymentOrder(userId, providerOrderId, "membership");
      if (!order) return null;
      try {
        const settled = await settlePaymentOrder(order, (captured, capture, transaction) =>
          onCaptured({ paymentOrderId: captured.id, amount: capture.amount }, transaction),
        );
        return { paymentOrderId: settled.order.id, settledNow: settled.settledNow };
      } catch (error) {
        return failed(error);
      }
    },

    async cancel(userId, providerOrderId) {
      const order = await findUserPaymentOrder(userId, providerOrderId, "membership");
      if (!order) return null;
      await cancelPaymentOrder(order);
      return { paymentOrderId: order.id };
    },
  };
}
