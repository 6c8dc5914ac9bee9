// Paying for memberships (docs/decisions/0602): Subscribe pays the first period, Renew the next
// one, through the payments gateway; a purchase is applied once, when its payment is captured.
// The checkout below is the one seam between memberships and the gateway: memberships never talk
// to a provider themselves; the default goes through the shared payment orders.
import type { Transaction } from "sequelize";
import {
  Membership,
  MembershipPlan,
  MembershipPurchase,
  type PurchaseKind,
} from "~/models/membership.server";
import { Op } from "sequelize";
import { sequelize } from "~/models/db.server";
import { PaymentOrder, PaymentRefund } from "~/models/payment.server";
import {
  cancelPaymentOrder,
  createPaymentOrder,
  findUserPaymentOrder,
} from "~/services/deposits/payments.server";
import { settleCheckout } from "~/services/deposits/settle.server";
import { PAYMENT_NOT_COMPLETED } from "~/services/memberships/messages";
import { firstPaidPeriod, periodEnd } from "~/services/memberships/rules";
import { notify } from "~/platform/notifications.server";
import {
  queueMembershipReceipt,
  queueMembershipRefundMail,
} from "~/services/deposits/receipt-mail.server";
import { PaymentGatewayError } from "~/platform/payments/index.server";
import { toCents } from "~/utils/money";
import { formatDay } from "~/utils/time";
import { userTimeZone } from "~/services/accounts/time-zone.server";
import { UserError } from "~/utils/user-error";
import {
  activeMembership,
  type ActiveMembership,
  freeDaysEnd,
  lockUser,
  MembershipError,
  paidPlan,
  putMembership,
  runningCampaign,
} from "./memberships.server";
import { log } from "~/platform/log.server";

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
  /** The payer turned back at the provider. Null when the order is not this user's. */
  cancel(userId: string, providerOrderId: string): Promise<{ paymentOrderId: string } | null>;
}

/**
 * The provider could not create, capture or cancel a payment: nothing was bought. A 502 for the
 * user; the provider's own words (`detail`) go to the log only.
 */
export class PaymentFailedError extends UserError {
  constructor(readonly detail: string) {
    super(PAYMENT_NOT_COMPLETED, { status: 502, title: "Payment failed", code: "payment_failed" });
  }
}

function failed(error: unknown): never {
  if (error instanceof PaymentGatewayError) {
    log().error({ err: error }, "membership payment failed");
    throw new PaymentFailedError(error.message);
  }
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

    async cancel(userId, providerOrderId) {
      const order = await findUserPaymentOrder(userId, providerOrderId, "membership");
      if (!order) return null;
      await cancelPaymentOrder(order);
      return { paymentOrderId: order.id };
    },
  };
}

function describePurchase(
  plan: MembershipPlan,
  kind: PurchaseKind,
  from: Date | null,
  zone: string,
) {
  const what = `BidYard ${plan.name} membership`;
  const period = plan.billingInterval === "yearly" ? "1 year" : "1 month";
  // a period bought during a trial starts when the trial ends: the payer sees that date
  const start = from ? ` from ${formatDay(from, zone)}` : "";
  return `${what}${kind === "renew" ? " renewal" : ""} (${period}${start})`.slice(0, 127);
}

async function beginPurchase(
  userId: string,
  plan: MembershipPlan,
  kind: PurchaseKind,
  campaignId: string | null,
  checkout: MembershipCheckout,
  from: Date | null = null,
  /** A renewal: the period end it extends, so it never pays a period paid meanwhile. */
  follows: Date | null = null,
) {
  const order = await checkout.createOrder({
    userId,
    amount: plan.price,
    description: describePurchase(plan, kind, from, await userTimeZone(userId)),
    returnPath: "/membership/return",
    cancelPath: "/membership/cancel",
  });
  await MembershipPurchase.create({
    userId,
    planId: plan.id,
    campaignId,
    kind,
    amount: plan.price,
    paymentOrderId: order.paymentOrderId,
    // until applied, a renewal's period_start is the end it was started to extend (record 3501)
    periodStart: follows,
  });
  return { approvalUrl: order.approvalUrl, paymentOrderId: order.paymentOrderId };
}

/**
 * Starts paying the first period of a plan: answers the provider's approval link. Nothing about
 * the membership changes until the payment is captured (completeMembershipPayment).
 */
export async function beginSubscription(
  userId: string,
  input: { planId: string; campaignId?: string | null },
  { checkout = membershipCheckout(), now = new Date() } = {},
) {
  const plan = await paidPlan(input.planId);
  const campaign = input.campaignId ? await runningCampaign(input.campaignId, now) : null;
  const current = await activeMembership(userId, undefined, now);
  if (current?.status === "active") {
    // one payment per period; a plan change waits for the paid period's end (record 3501)
    const paid = alreadyPays(current, await userTimeZone(userId));
    throw new PeriodPaidError(
      current.planId === String(plan.id)
        ? `${paid} Renew it to pay the next period.`
        : `${paid} You can change to ${plan.name} once that period ends.`,
    );
  }
  const freeUntil = current ? freeDaysEnd(current, now) : null;
  return beginPurchase(
    userId,
    plan,
    "subscribe",
    campaign ? campaign.id : null,
    checkout,
    freeUntil,
  );
}

/** Starts paying the next period of the user's paid membership (expired ones too). */
export async function beginRenewal(
  userId: string,
  { checkout = membershipCheckout() }: { checkout?: MembershipCheckout } = {},
) {
  const membership = await Membership.findOne({ where: { userId } });
  if (!membership || membership.status !== "active") {
    throw new MembershipError(400, "You have no paid membership to renew. Subscribe to a plan.");
  }
  const plan = await paidPlan(membership.planId);
  return beginPurchase(userId, plan, "renew", null, checkout, null, membership.currentPeriodEnd);
}

/** Runs once per captured order, inside the transaction that records the capture. */
async function applyPurchase(
  payment: { paymentOrderId: string; amount: string },
  transaction: Transaction,
  now: Date,
) {
  const purchase = await MembershipPurchase.findOne({
    where: { paymentOrderId: payment.paymentOrderId },
    transaction,
    lock: transaction.LOCK.UPDATE,
  });
  if (!purchase) throw new Error(`No membership purchase for order ${payment.paymentOrderId}`);
  if (purchase.status === "applied") return purchase;
  if (toCents(payment.amount) !== toCents(purchase.amount)) {
    throw new Error(`Captured ${payment.amount}, expected ${purchase.amount}`);
  }
  await lockUser(purchase.userId, transaction);
  const plan = await MembershipPlan.findByPk(purchase.planId, { transaction, rejectOnEmpty: true });
  const current = await activeMembership(purchase.userId, transaction, now);
  const existing = await Membership.findOne({ where: { userId: purchase.userId }, transaction });
  // A renewal extends the paid period it follows. A subscription starts its period now, or when
  // the free days of a trial end, so none of them is lost (docs/decisions/2851).
  const extending =
    purchase.kind === "renew" &&
    existing !== null &&
    current?.status === "active" &&
    current.planId === String(plan.id);
  const { start, end } = extending
    ? {
        start: current.currentPeriodEnd,
        end: periodEnd(current.currentPeriodEnd, plan.billingInterval),
      }
    : firstPaidPeriod(plan.billingInterval, now, current ? freeDaysEnd(current, now) : null);
  await putMembership(
    purchase.userId,
    {
      planId: plan.id,
      campaignId: purchase.campaignId ?? (extending || start > now ? existing!.campaignId : null),
      status: "active",
      currentPeriodStart: extending ? existing.currentPeriodStart : start,
      currentPeriodEnd: end,
    },
    transaction,
  );
  await purchase.update(
    { status: "applied", periodStart: start, periodEnd: end, appliedAt: now },
    { transaction },
  );
  const zone = await userTimeZone(purchase.userId, transaction);
  await notify(
    purchase.userId,
    {
      kind: purchase.kind === "renew" ? "membership_renewed" : "membership_started",
      title:
        purchase.kind === "renew"
          ? `Your ${plan.name} membership is renewed`
          : `Welcome to ${plan.name}`,
      body:
        start > now
          ? `Your free trial continues until ${formatDay(start, zone)}; paid until ${formatDay(end, zone)}.`
          : `Active until ${formatDay(end, zone)}.`,
      link: "/membership",
    },
    transaction,
  );
  await queueMembershipReceipt(
    {
      userId: purchase.userId,
      paymentOrderId: payment.paymentOrderId,
      amount: payment.amount,
      planName: plan.name,
      period: `${formatDay(start, zone)} to ${formatDay(end, zone)}`,
    },
    transaction,
  );
  return purchase;
}

/** "You already pay for Basic until Dec 28, 2026." */
function alreadyPays(
  current: Pick<ActiveMembership, "planName" | "currentPeriodEnd">,
  zone: string,
) {
  return `You already pay for ${current.planName} until ${formatDay(current.currentPeriodEnd, zone)}.`;
}

/**
 * Whether the period `purchase` would pay is paid already (by another checkout, a tab, a renewal
 * started at the same time): the sentence that says so, or null when it is still to pay. Read
 * under the membership's lock.
 */
async function periodPaidAlready(
  purchase: MembershipPurchase,
  transaction: Transaction,
  now: Date,
): Promise<string | null> {
  const current = await activeMembership(purchase.userId, transaction, now);
  const zone = await userTimeZone(purchase.userId, transaction);
  if (purchase.kind === "subscribe") {
    return current?.status === "active" ? alreadyPays(current, zone) : null;
  }
  if (!purchase.periodStart) return null; // a renewal started before record 3501
  const membership = await Membership.findOne({
    where: { userId: purchase.userId },
    transaction,
  });
  if (!membership || membership.currentPeriodEnd.getTime() === purchase.periodStart.getTime()) {
    return null;
  }
  return current?.status === "active"
    ? alreadyPays(current, zone)
    : "The period this renewal was for is paid already.";
}

/**
 * The membership as the payable of its checkouts (record 3201, 3501): the user's row (which
 * stands for the membership before it has a row of its own) and the membership's row are locked
 * while a checkout settles, so one period is paid once, whichever tab, call or worker comes first.
 */
function membershipPayable(order: PaymentOrder, now: Date) {
  const found: { paidAlready: string | null } = { paidAlready: null };
  const payable = {
    async lock(transaction: Transaction) {
      await sequelize.query("SELECT id FROM users WHERE id = :id FOR UPDATE NOWAIT", {
        replacements: { id: order.userId },
        transaction,
      });
      await sequelize.query("SELECT id FROM memberships WHERE user_id = :id FOR UPDATE", {
        replacements: { id: order.userId },
        transaction,
      });
      const purchase = await MembershipPurchase.findOne({
        where: { paymentOrderId: order.id },
        transaction,
        rejectOnEmpty: true,
      });
      if (purchase.status === "applied") return { state: "paid" as const };
      found.paidAlready = await periodPaidAlready(purchase, transaction, now);
      if (found.paidAlready) return { state: "paid" as const };
      return { state: "open" as const, amount: purchase.amount };
    },
    paid: (locked: PaymentOrder, capture: { amount: string }, transaction: Transaction) =>
      applyPurchase({ paymentOrderId: locked.id, amount: capture.amount }, transaction, now),
    /** The user's other membership checkouts nobody has paid yet: closed once one is paid. */
    async openCheckouts() {
      const open = await PaymentOrder.findAll({
        attributes: ["id"],
        where: {
          userId: order.userId,
          purpose: "membership",
          status: "created",
          id: { [Op.ne]: order.id },
        },
      });
      return open.map((o) => o.id);
    },
    settlesTurnedBack: true,
    findsLostCaptures: true,
  };
  return { payable, found };
}

/**
 * The payer approved: capture and, once, make the membership active for the period paid. Throws
 * MembershipError(404) for an order that is not this user's, MembershipError(409) when the period
 * is paid already (the checkout is closed, never captured), and PaymentFailedError when the
 * provider fails or captured what the period does not cost (refunded, with an e-mail).
 */
export async function completeMembershipPayment(
  userId: string,
  providerOrderId: string,
  { now = new Date() }: { checkout?: MembershipCheckout; now?: Date } = {},
) {
  const order = await findUserPaymentOrder(userId, providerOrderId, "membership");
  if (!order) throw new MembershipError(404, "No such membership payment.");
  const { payable, found } = membershipPayable(order, now);
  const settled = await settleCheckout(
    order,
    payable,
    () => new PaymentGatewayError("unavailable", "The order is being settled by another request"),
  ).catch(failed);
  if (settled.outcome === "refunded") {
    await mailUnwantedCapture(settled.refund.id, found.paidAlready);
    if (found.paidAlready) {
      throw new PeriodPaidError(
        `${found.paidAlready} This checkout was charged all the same, so we refund it in full.`,
      );
    }
    throw new PaymentFailedError("The capture does not match the order");
  }
  if (settled.outcome === "voided") {
    if (found.paidAlready) {
      throw new PeriodPaidError(
        `${found.paidAlready} This checkout is closed; nothing was charged.`,
      );
    }
    throw new PaymentFailedError("The order is closed");
  }
  const purchase = await MembershipPurchase.findOne({
    where: { paymentOrderId: settled.payment.id, userId },
  });
  if (!purchase || purchase.status !== "applied") {
    throw new Error(`Membership payment ${settled.payment.id} is captured but not applied`);
  }
  return { kind: purchase.kind, settledNow: settled.outcome === "paid" };
}

/** A second checkout for a period already paid: closed uncaptured, and the payer told why. */
export class PeriodPaidError extends MembershipError {
  constructor(message: string) {
    super(409, message);
  }
}

/** Tells the payer a capture their membership could not take went back (or is going back). */
async function mailUnwantedCapture(refundId: string, paidAlready: string | null) {
  const refund = await PaymentRefund.findByPk(refundId, { rejectOnEmpty: true });
  const order = await PaymentOrder.findByPk(refund.paymentOrderId, { rejectOnEmpty: true });
  const purchase = await MembershipPurchase.findOne({ where: { paymentOrderId: order.id } });
  const plan = purchase ? await MembershipPlan.findByPk(purchase.planId) : null;
  await queueMembershipRefundMail({
    userId: refund.userId,
    refundId: refund.id,
    amount: refund.amount,
    planName: plan?.name ?? "BidYard",
    price: purchase?.amount ?? order.amount,
    provider: order.provider,
    captureId: order.captureId ?? "",
    sent: refund.status === "completed",
    paidAlready,
  });
}

/** The payer turned back at the provider: nothing changes but the purchase's note. */
export async function cancelMembershipPayment(
  userId: string,
  providerOrderId: string,
  { checkout = membershipCheckout() }: { checkout?: MembershipCheckout } = {},
) {
  const cancelled = await checkout.cancel(userId, providerOrderId);
  if (!cancelled) return;
  await MembershipPurchase.update(
    { status: "cancelled" },
    { where: { paymentOrderId: cancelled.paymentOrderId, userId, status: "pending" } },
  );
}
