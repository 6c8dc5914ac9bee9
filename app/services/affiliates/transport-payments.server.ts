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
  closePaymentOrders,
  createPaymentOrder,
  findUserPaymentOrder,
} from "~/services/deposits/payments.server";
import { settleCheckout, retryWhileLocked } from "~/services/deposits/settle.server";
import { notify } from "~/platform/notifications.server";
import { paymentGateway, PaymentGatewayError } from "~/platform/payments/index.server";
import { formatUsd, fromCents, parseCents, toCents } from "~/utils/money";
import { queueTransportMail } from "./transport-mail.server";
import { log } from "~/platform/log.server";

export const TRANSPORT_RETURN_PATH = "/service-orders/payment/return";
export const TRANSPORT_CANCEL_PATH = "/service-orders/payment/cancel";

const M = TRANSPORT_MESSAGES;

export type TransportPayment =
  | { paid: true; source: "deposit"; orderId: string }
  | { paid: false; approvalUrl: string; orderId: string };

function providerFailed(error: unknown): never {
  if (!(error instanceof PaymentGatewayError)) throw error;
  log().error({ err: error, step: "transport" }, "payment provider error");
  throw new AffiliateError(502, M.providerFailed);
}

/** The buyer's unpaid order, locked; 404 for anyone else's, 409 when there is nothing to pay. */
async function lockPayableOrder(userId: string, orderId: string, transaction: Transaction) {
  if (!/^\d{1,18}$/.test(orderId)) throw new AffiliateError(404, ORDER_NOT_FOUND);
  // NOWAIT: a request that finds the order held (a gateway return capturing) lets go of its
  // connection and tries again (retryWhileLocked, record 3201)
  const [row] = await sequelize.query<{ id: string }>(
    "SELECT id FROM service_orders WHERE id = :orderId FOR UPDATE NOWAIT",
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  const order = row ? await ServiceOrder.findByPk(orderId, { transaction }) : null;
  // someone else's order reads as not found, so ids cannot be probed
  if (!order || order.requestedBy !== userId) throw new AffiliateError(404, ORDER_NOT_FOUND);
  if (order.paymentStatus === "paid") throw new AffiliateError(409, M.alreadyPaid);
  if (order.paymentStatus !== "unpaid") throw new AffiliateError(409, M.nothingToPay);
  return order;
}

/**
 * Ownership before the form (see record 3202): someone else's order, or one that does not exist,
 * is a 404 whatever the body says, checked before the body is read.
 */
export async function requireOwnTransportOrder(userId: string, orderId: string) {
  if (!/^\d{1,18}$/.test(orderId)) throw new AffiliateError(404, ORDER_NOT_FOUND);
  const own = await ServiceOrder.count({ where: { id: orderId, requestedBy: userId } });
  if (own === 0) throw new AffiliateError(404, ORDER_NOT_FOUND);
}

/** How the buyer chose to pay for transport: never from the deposit unless they said so. */
export type TransportPaymentSource = "deposit" | "gateway";

/**
 * The buyer confirms the quote they were shown (`expectedPrice`, decimal dollars) and how to pay
 * it (docs/decisions/2753). A price that is not the order's is refused (409) with nothing
 * written. `deposit`: charged at once from the deposit's free part (an `applied` ledger entry),
 * or refused (409) when that part no longer covers it; `gateway`: a checkout is started at the
 * provider and the order stays unpaid until the payer comes back. The deposit is never used
 * unless asked for.
 */
export async function confirmTransportPayment(
  userId: string,
  orderId: string,
  expectedPrice: string,
  source: TransportPaymentSource,
): Promise<TransportPayment> {
  const expected = parseCents(expectedPrice);
  const { order, previousCheckout } = await retryWhileLocked(
    () =>
      sequelize.transaction(async (transaction) => {
        // the user row first, as every deposit movement does, then the order
        const user = await User.findByPk(userId, {
          transaction,
          lock: transaction.LOCK.UPDATE,
          rejectOnEmpty: true,
        });
        const order = await lockPayableOrder(userId, orderId, transaction);
        if (expected === null || expected !== toCents(order.payout))
          throw new AffiliateError(409, M.priceChanged);
        if (source === "gateway") return { order, previousCheckout: null };
        const available = toCents(await availableBuyingPower(user, transaction));
        if (available < toCents(order.payout)) throw new AffiliateError(409, M.depositShort);
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
        return { order, previousCheckout: order.paymentOrderId };
      }),
    busy,
  );
  if (source === "deposit") {
    // a checkout started earlier for this order cannot be approved any more
    if (previousCheckout) await closePaymentOrders([previousCheckout]);
    return { paid: true, source: "deposit", orderId: String(order.id) };
  }

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
  // The newest checkout is the one that pays; the one it replaces is closed.
  const [replaced] = await sequelize.query<{ previous: string | null }>(
    `UPDATE service_orders s SET payment_order_id = :paymentOrderId, updated_at = now()
       FROM (SELECT id, payment_order_id AS previous FROM service_orders WHERE id = :id FOR UPDATE) p
      WHERE s.id = p.id AND s.requested_by = :userId AND s.payment_status = 'unpaid'
        AND s.payout = :payout
     RETURNING p.previous`,
    {
      replacements: {
        id: order.id,
        userId,
        payout: order.payout,
        paymentOrderId: started.order.id,
      },
      type: QueryTypes.SELECT,
    },
  );
  if (!replaced) {
    await closePaymentOrders([started.order.id]);
    throw new AffiliateError(409, M.alreadyPaid);
  }
  if (replaced.previous) await closePaymentOrders([String(replaced.previous)]);
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
  await queueTransportMail("paid", String(order.id), transaction);
}

/** The order's checkouts that can no longer pay it: its current one, once it is paid. */
async function closedCheckouts(orderId: string) {
  const rows = await sequelize.query<{ id: string }>(
    `SELECT o.id FROM payment_orders o JOIN service_orders s ON s.payment_order_id = o.id
      WHERE s.id = :orderId AND s.payment_status <> 'unpaid' AND o.status = 'created'`,
    { replacements: { orderId }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => String(row.id));
}

const busy = () => new AffiliateError(409, M.busy);

/**
 * The payer is back from the provider (?token=): capture and mark the order paid, once, however
 * many times this runs, through the one settle mechanism (see record 3201): the order's row is
 * locked before anything is captured, so a checkout of an order paid meanwhile (from the deposit,
 * another tab) is voided uncaptured (409). A checkout that is no longer the order's newest is
 * refused uncaptured; a provider failure leaves the order unpaid (502). Answers the order's id.
 */
export async function completeTransportPayment(userId: string, providerOrderId: string) {
  const payment = await findUserPaymentOrder(userId, providerOrderId, "service_order");
  if (!payment) throw new AffiliateError(404, M.unknownCheckout);
  const charged = await ServiceOrderCharge.findOne({ where: { paymentOrderId: payment.id } });
  if (charged) return { orderId: String(charged.serviceOrderId), paidNow: false };
  const order = await ServiceOrder.findOne({ where: { paymentOrderId: payment.id } });
  if (!order) {
    // a replaced checkout is never captured; if it is still open it is closed now
    await closePaymentOrders([payment.id]);
    throw new AffiliateError(409, M.replacedCheckout);
  }
  const settled = await settleCheckout(
    payment,
    {
      async lock(transaction, locking) {
        const [row] = await sequelize.query<{
          payment_status: string;
          payment_order_id: string | null;
          payout: string;
        }>(
          `SELECT payment_status, payment_order_id, payout::text FROM service_orders
            WHERE id = :id AND requested_by = :userId FOR UPDATE NOWAIT`,
          { replacements: { id: order.id, userId }, type: QueryTypes.SELECT, transaction },
        );
        if (!row) return { state: "closed" };
        if (row.payment_status === "paid") return { state: "paid" };
        if (row.payment_status !== "unpaid" || String(row.payment_order_id) !== locking.id)
          return { state: "closed" };
        return { state: "open", amount: row.payout };
      },
      async paid(locked, capture, transaction) {
        await markPaid(order.id, transaction, { paymentOrderId: locked.id });
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
      },
      openCheckouts: () => closedCheckouts(String(order.id)),
    },
    busy,
  ).catch((error: unknown) => providerFailed(error));
  switch (settled.outcome) {
    case "paid":
      return { orderId: String(order.id), paidNow: true };
    case "settled-before":
      return { orderId: String(order.id), paidNow: false };
    case "voided":
      throw new AffiliateError(409, settled.reason === "paid" ? M.alreadyPaid : M.replacedCheckout);
    case "refunded":
      throw new AffiliateError(409, M.refundedCapture);
  }
}

/** The payer turned back at the provider: nothing was charged; the order stays unpaid. */
export async function cancelTransportPayment(userId: string, providerOrderId: string) {
  const payment = await findUserPaymentOrder(userId, providerOrderId, "service_order");
  if (!payment) return null;
  await cancelPaymentOrder(payment);
  const order = await ServiceOrder.findOne({ where: { paymentOrderId: payment.id } });
  return order ? String(order.id) : null;
}

/**
 * What the buyer's review step shows: the price, the buying power now, and what it would be after
 * each way of paying (the deposit only when its free part covers the price).
 */
export async function paymentPreview(userId: string, price: string) {
  const available = await availableBuyingPower(userId);
  const covers = toCents(available) >= toCents(price);
  return {
    price,
    available,
    /** Buying power once paid from the deposit, or null when the deposit cannot pay it. */
    afterDeposit: covers ? fromCents(toCents(available) - toCents(price)) : null,
    /** Paying through the gateway leaves the buying power as it is. */
    afterGateway: available,
    testMode: paymentGateway().testMode,
  };
}
export type PaymentPreview = Awaited<ReturnType<typeof paymentPreview>>;
