// Orders at the payment provider, whatever they pay for (deposits now, memberships later).
// Our side of every order lives in payment_orders; the provider is reached through the gateway.
import { randomUUID } from "node:crypto";
import type { Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { PaymentOrder, type PaymentPurpose } from "~/models/payment.server";
import { env } from "~/platform/env.server";
import {
  gatewayFor,
  paymentGateway,
  PaymentGatewayError,
  type CaptureResult,
  type PaymentGateway,
} from "~/platform/payments/index.server";

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
 * Captures the order at the provider and, once only, marks it captured and runs `onCaptured`
 * in the same transaction (credit the ledger, start the membership). Safe to call any number of
 * times, concurrently: the capture is idempotent at the provider and the order row is locked.
 * Answers the order as it stands and whether this call was the one that settled it.
 */
export async function settlePaymentOrder(
  order: PaymentOrder,
  onCaptured: (
    order: PaymentOrder,
    capture: CaptureResult,
    transaction: Transaction,
  ) => Promise<void>,
): Promise<{ order: PaymentOrder; settledNow: boolean }> {
  if (order.status === "captured") return { order, settledNow: false };
  const capture = await gatewayFor(order.provider).captureOrder(order.providerOrderId, {
    idempotencyKey: `capture-${order.id}`,
  });
  if (capture.providerOrderId !== order.providerOrderId || capture.currency !== order.currency) {
    throw new PaymentGatewayError("invalid_response", "The capture does not match the order");
  }
  if (capture.status !== "COMPLETED") {
    throw new PaymentGatewayError("declined", `The capture is ${capture.status}`, capture.status);
  }
  return sequelize.transaction(async (transaction) => {
    const locked = await PaymentOrder.findByPk(order.id, {
      transaction,
      lock: transaction.LOCK.UPDATE,
      rejectOnEmpty: true,
    });
    if (locked.status === "captured") return { order: locked, settledNow: false };
    locked.status = "captured";
    locked.capturedAmount = capture.amount;
    locked.captureId = capture.captureId;
    locked.capturedAt = new Date();
    await locked.save({ transaction });
    await onCaptured(locked, capture, transaction);
    return { order: locked, settledNow: true };
  });
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
      console.error("payment provider error (closing a checkout):", (error as Error).message);
    }
  }
  return closed.length;
}
