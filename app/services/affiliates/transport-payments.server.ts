// Paying for a buyer's transport job: from the deposit when its free part covers the price, else
// through the payment provider (docs/decisions/1751-transport-charge-and-provider-earnings.md).
// The order, the charge and the ledger entry change together in one transaction, once.
import { QueryTypes, type Transaction } from "sequelize";
import { ServiceOrder, ServiceOrderCharge } from "~/models/affiliate.server";
import { sequelize } from "~/models/db.server";
import { User } from "~/models/user.server";
import { AffiliateError } from "~/services/affiliates/applications.server";
import { ORDER_NOT_FOUND, TRANSPORT_MESSAGES } from "~/services/affiliates/messages";
import { availableBuyingPower } from "~/services/auctions/buying-power.server";
import { postLedgerEntry } from "~/services/deposits/deposits.server";
import {
  cancelPaymentOrder,
  createPaymentOrder,
  findUserPaymentOrder,
  settlePaymentOrder,
} from "~/services/deposits/payments.server";
import { notify } from "~/platform/notifications.server";
import { paymentGateway, PaymentGatewayError } from "~/platform/payments/index.server";
import { formatUsd, parseCents, toCents } from "~/utils/money";

export const TRANSPORT_RETURN_PATH = "/service-orders/payment/return";
export const TRANSPORT_CANCEL_PATH = "/service-orders/payment/cancel";

const M = TRANSPORT_MESSAGES;

export type TransportPayment =
  | { paid: true; source: "deposit"; orderId: string }
  | { paid: false; approvalUrl: string; orderId: string };

function providerFailed(error: unknown): never {
  if (!(error instanceof PaymentGatewayError)) throw error;
  console.error("payment provider error (transport):", error.code, error.message);
  throw new AffiliateError(502, M.providerFailed);
}

/** The buyer's unpaid order, locked; 404 for anyone else's, 409 when there is nothing to pay. */
async function lockPayableOrder(userId: string, orderId: string, transaction: Transaction) {
  if (!/^\d{1,18}$/.test(orderId)) throw new AffiliateError(404, ORDER_NOT_FOUND);
  const order = await ServiceOrder.findByPk(orderId, {
    transaction,
    lock: transaction.LOCK.UPDATE,
  });
  // someone else's order reads as not found, so ids cannot be probed
  if (!order || order.requestedBy !== userId) throw new AffiliateError(404, ORDER_NOT_FOUND);
  if (order.paymentStatus === "paid") throw new AffiliateError(409, M.alreadyPaid);
  if (order.paymentStatus !== "unpaid") throw new AffiliateError(409, M.nothingToPay);
  return order;
}

/**
 * The buyer confirms the quote they were shown (`expectedPrice`, decimal dollars). A price that
 * is not the order's is refused (409) with nothing written. When the deposit's free part covers
 * the price it is charged at once (an `applied` ledger entry); otherwise a checkout is started
 * at the provider and the order stays unpaid until the payer comes back.
 */
export async function confirmTransportPayment(
  userId: string,
  orderId: string,
  expectedPrice: string,
): Promise<TransportPayment> {
  const expected = parseCents(expectedPrice);
  const fromDeposit = await sequelize.transaction(async (transaction) => {
    // the user row first, as every deposit movement does, then the order
    const user = await User.findByPk(userId, {
      transaction,
      lock: transaction.LOCK.UPDATE,
      rejectOnEmpty: true,
    });
    const order = await lockPayableOrder(userId, orderId, transaction);
    if (expected === null || expected !== toCents(order.payout))
      throw new AffiliateError(409, M.priceChanged);
    const available = toCents(await availableBuyingPower(user, transaction));
    if (available < toCents(order.payout)) return null;
    const entry = await postLedgerEntry(transaction, {
      userId,
      kind: "applied",
      amount: `-${order.payout}`,
      memo: `Transport order #${order.id}: ${order.vehicleLabel}`.slice(0, 200),
    });
    await markPaid(order.id, transaction);
    await ServiceOrderCharge.create(
      {
        serviceOrderId: order.id,
        userId,
        amount: order.payout,
        source: "deposit",
        depositEntryId: entry.id,
        paymentOrderId: null,
      },
      { transaction },
    );
    await notifyPaid(userId, order, transaction);
    return order;
  });
  if (fromDeposit) return { paid: true, source: "deposit", orderId: String(fromDeposit.id) };

  const order = (await ServiceOrder.findByPk(orderId))!;
  let started;
  try {
    started = await createPaymentOrder({
      userId,
      purpose: "service_order",
      amount: order.payout,
      description: `BidYard transport #${order.id} ${formatUsd(order.payout)}`.slice(0, 127),
      returnPath: TRANSPORT_RETURN_PATH,
      cancelPath: TRANSPORT_CANCEL_PATH,
    });
  } catch (error) {
    providerFailed(error);
  }
  // The newest checkout is the one that pays; an older one coming back is refused uncaptured.
  const [, linked] = await ServiceOrder.update(
    { paymentOrderId: started.order.id },
    {
      where: { id: order.id, requestedBy: userId, paymentStatus: "unpaid", payout: order.payout },
      returning: true,
    },
  );
  if (linked.length === 0) {
    await cancelPaymentOrder(started.order);
    throw new AffiliateError(409, M.alreadyPaid);
  }
  return { paid: false, approvalUrl: started.approvalUrl, orderId: String(order.id) };
}

async function markPaid(
  orderId: string,
  transaction: Transaction,
  by: { paymentOrderId?: string } = {},
) {
  const rows = await sequelize.query<{ id: string; payout: string }>(
    `UPDATE service_orders SET payment_status = 'paid', paid_at = now(), updated_at = now()
      WHERE id = :orderId AND payment_status = 'unpaid'
        ${by.paymentOrderId ? "AND payment_order_id = :paymentOrderId" : ""}
     RETURNING id, payout::text`,
    {
      replacements: { orderId, paymentOrderId: by.paymentOrderId ?? null },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return rows[0] ?? null;
}

async function notifyPaid(userId: string, order: ServiceOrder, transaction: Transaction) {
  await notify(
    userId,
    {
      kind: "service_order_paid",
      title: `Transport paid: ${formatUsd(order.payout)}`,
      body: `Your ${order.serviceType} job for the ${order.vehicleLabel} is on the job board for providers.`,
      link: `/service-orders/${order.id}`,
    },
    transaction,
  );
}

/**
 * The payer is back from the provider (?token=): capture and mark the order paid, once, however
 * many times this runs. A checkout that is no longer the order's newest is refused uncaptured;
 * a provider failure leaves the order unpaid (502). Answers the order's id.
 */
export async function completeTransportPayment(userId: string, providerOrderId: string) {
  const payment = await findUserPaymentOrder(userId, providerOrderId, "service_order");
  if (!payment) throw new AffiliateError(404, M.unknownCheckout);
  const order = await ServiceOrder.findOne({ where: { paymentOrderId: payment.id } });
  const charged = await ServiceOrderCharge.findOne({ where: { paymentOrderId: payment.id } });
  if (charged) return { orderId: String(charged.serviceOrderId), paidNow: false };
  if (!order) throw new AffiliateError(409, M.replacedCheckout);
  if (order.paymentStatus === "paid") throw new AffiliateError(409, M.alreadyPaid);
  const { settledNow } = await settlePaymentOrder(payment, async (locked, capture, transaction) => {
    const paid =
      toCents(capture.amount) === toCents(order.payout)
        ? await markPaid(order.id, transaction, { paymentOrderId: locked.id })
        : null;
    if (paid) {
      await ServiceOrderCharge.create(
        {
          serviceOrderId: order.id,
          userId,
          amount: capture.amount,
          source: "gateway",
          depositEntryId: null,
          paymentOrderId: locked.id,
        },
        { transaction },
      );
      await notifyPaid(userId, order, transaction);
      return;
    }
    // Captured money the order no longer needs (paid another way in the meantime) is not lost:
    // it goes to the buyer's deposit, with its entry, for support to refund.
    await User.findByPk(userId, { transaction, lock: transaction.LOCK.UPDATE });
    await postLedgerEntry(transaction, {
      userId,
      kind: "deposit",
      amount: capture.amount,
      paymentOrderId: locked.id,
      memo: `Transport #${order.id} was already paid; this payment is kept in your deposit`,
    });
  }).catch((error: unknown) => providerFailed(error));
  const after = await ServiceOrder.findByPk(order.id, { rejectOnEmpty: true });
  if (after.paymentStatus !== "paid") throw new AffiliateError(409, M.alreadyPaid);
  return { orderId: String(order.id), paidNow: settledNow };
}

/** The payer turned back at the provider: nothing was charged; the order stays unpaid. */
export async function cancelTransportPayment(userId: string, providerOrderId: string) {
  const payment = await findUserPaymentOrder(userId, providerOrderId, "service_order");
  if (!payment) return null;
  await cancelPaymentOrder(payment);
  const order = await ServiceOrder.findOne({ where: { paymentOrderId: payment.id } });
  return order ? String(order.id) : null;
}

/** What the buyer's review step shows: the price and how it would be paid. */
export async function paymentPreview(userId: string, price: string) {
  const available = await availableBuyingPower(userId);
  return {
    price,
    available,
    fromDeposit: toCents(available) >= toCents(price),
    testMode: paymentGateway().testMode,
  };
}
export type PaymentPreview = Awaited<ReturnType<typeof paymentPreview>>;
