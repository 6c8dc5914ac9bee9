// Orders at the payment provider, whatever they pay for (deposits now, memberships later).
// Our side of every order lives in payment_orders; the provider is reached through the gateway.
import { randomUUID } from "node:crypto";
import type { Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { PaymentOrder, type PaymentPurpose } from "~/models/payment.server";
import { env } from "~/platform/env.server";
import { settleCheckout } from "./settle.server";
import {
  gatewayFor,
  paymentGateway,
  PaymentGatewayError,
  type CaptureResult,
  type PaymentGateway,
} from "~/platform/payments/index.server";
import { log } from "~/platform/log.server";

export type StartedPayment = { order: PaymentOrder; approvalUrl: string };

/**
 * Creates an order at the provider for `amount` and records it. `returnPath`/`cancelPath` are
 * our own paths; the provider appends ?token=<provider order id> when it sends the payer back.
 */
export async function createPaymentOrder(input: {
  userId: string;
  purpose: PaymentPurpose;
  amount: string;
  description: string;
  returnPath: string;
  cancelPath: string;
  /** Only the demo seed names one (the TEST MODE gateway); otherwise this environment's. */
  gateway?: PaymentGateway;
}): Promise<StartedPayment> {
  const gateway = input.gateway ?? paymentGateway();
  const id = randomUUID();
  const idempotencyKey = `order-${id}`;
  const origin = env().APP_URL;
  const created = await gateway.createOrder({
    amount: input.amount,
    currency: "USD",
    description: input.description,
    reference: id,
    returnUrl: new URL(input.returnPath, origin).toString(),
    cancelUrl: new URL(input.cancelPath, origin).toString(),
    idempotencyKey,
  });
  const order = await PaymentOrder.create({
    id,
    userId: input.userId,
    purpose: input.purpose,
    provider: gateway.name,
    providerOrderId: created.providerOrderId,
    idempotencyKey,
    description: input.description,
    amount: input.amount,
  });
  return { order, approvalUrl: created.approvalUrl };
}

/** The user's own order by the provider's id, or null (someone else's order is null too). */
export async function findUserPaymentOrder(
  userId: string,
  providerOrderId: string,
  purpose: PaymentPurpose,
) {
  return PaymentOrder.findOne({ where: { userId, providerOrderId, purpose } });
}

/**
 * Captures an order that is its own payable (a deposit, a membership period) and, once only,
 * marks it captured and runs `onCaptured` in the same transaction (credit the ledger, start the
 * membership), through the one settle mechanism (settleCheckout, record 3201): the order's row
 * is locked before the provider is asked, so concurrent calls capture it once; a capture of
 * another amount than the order's is refunded, not credited. Answers the order as it stands and
 * whether this call was the one that settled it.
 */
export async function settlePaymentOrder(
  order: PaymentOrder,
  onCaptured: (
    order: PaymentOrder,
    capture: CaptureResult,
    transaction: Transaction,
  ) => Promise<void>,
  /** `any`: a deposit takes whatever is captured; `exact`: the order's amount or a refund */
  amount: "any" | "exact",
): Promise<{ order: PaymentOrder; settledNow: boolean }> {
  if (order.status === "captured") return { order, settledNow: false };
  const settled = await settleCheckout(
    order,
    {
      async lock(transaction) {
        await sequelize.query("SELECT id FROM payment_orders WHERE id = :id FOR UPDATE NOWAIT", {
          replacements: { id: order.id },
          transaction,
        });
        return { state: "open", amount: amount === "any" ? null : order.amount };
      },
      paid: (locked, capture, transaction) => onCaptured(locked, capture, transaction),
      openCheckouts: async () => [],
      settlesTurnedBack: true,
    },
    () => new PaymentGatewayError("unavailable", "The order is being settled by another request"),
  );
  if (settled.outcome === "refunded") {
    throw new PaymentGatewayError("invalid_response", "The capture does not match the order");
  }
  if (settled.outcome === "voided") {
    throw new PaymentGatewayError("declined", "The order is closed", "ORDER_CLOSED");
  }
  return { order: settled.payment, settledNow: settled.outcome === "paid" };
}

/** The payer turned back at the provider: note it (a later approval can still settle it). */
export async function cancelPaymentOrder(order: PaymentOrder) {
  await PaymentOrder.update(
    { status: "cancelled" },
    { where: { id: order.id, status: "created" } },
  );
}

/**
 * Closes checkouts nobody should approve any more (what they were for is paid, or replaced):
 * our rows still `created` become `cancelled`, so they are never captured, and the provider is
 * asked to close its side, so its checkout page refuses them (the TEST MODE gateway does; PayPal
 * has no such call and lets them lapse). A provider that cannot be reached is logged, not
 * thrown: our side is already closed. Answers how many were closed.
 */
export async function closePaymentOrders(orderIds: string[]) {
  if (orderIds.length === 0) return 0;
  const [, closed] = await PaymentOrder.update(
    { status: "cancelled" },
    { where: { id: orderIds, status: "created" }, returning: true },
  );
  for (const order of closed) {
    try {
      await gatewayFor(order.provider).voidOrder(order.providerOrderId);
    } catch (error) {
      log().error(
        { err: error, step: "closing a checkout", payment_order_id: String(order.id) },
        "payment provider error",
      );
    }
  }
  return closed.length;
}
