// Receipts for the payments that had none: money added to a deposit, and a membership period
// (docs/decisions/3305). Queued in the transaction that records the capture, once per payment
// order (the dedupe key), under each its own e-mail preference.
import type { Transaction } from "sequelize";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { env } from "~/platform/env.server";
import { queueMail } from "~/platform/mail/outbox.server";
import { formatUsd } from "~/utils/money";

const appUrl = (path: string) => new URL(path, env().APP_URL).toString();

const providerName = (provider: string) => (provider === "test" ? "test payment" : "PayPal");

/** The deposit receipt: what was captured, the reference, and the deposit it makes. */
export async function queueDepositReceipt(
  payment: {
    userId: string;
    paymentOrderId: string;
    amount: string;
    provider: string;
    captureId: string;
  },
  transaction: Transaction,
) {
  const [user] = await sequelize.query<{ deposit: string }>(
    "SELECT deposit::text AS deposit FROM users WHERE id = :id",
    { replacements: { id: payment.userId }, type: QueryTypes.SELECT, transaction },
  );
  return queueMail(
    {
      userId: payment.userId,
      topic: "deposit_receipt",
      subject: `Receipt: ${formatUsd(payment.amount)} added to your deposit`,
      content: {
        paragraphs: [
          `We received ${formatUsd(payment.amount)} through ${providerName(payment.provider)} (reference ${payment.captureId}) and added it to your deposit, once.`,
          `Your deposit is now ${formatUsd(user?.deposit ?? "0")}. What no bid or invoice holds can be refunded to the way you paid, at any time, on the deposit page.`,
        ],
        action: { label: "See your deposit", url: appUrl("/deposit") },
      },
      dedupeKey: `deposit-receipt:${payment.paymentOrderId}`,
    },
    transaction,
  );
}

/** The membership receipt: the plan, the amount and the period it pays for. */
export async function queueMembershipReceipt(
  payment: {
    userId: string;
    paymentOrderId: string;
    amount: string;
    planName: string;
    period: string;
  },
  transaction: Transaction,
) {
  return queueMail(
    {
      userId: payment.userId,
      topic: "membership_receipt",
      subject: `Receipt: ${payment.planName} membership, ${formatUsd(payment.amount)}`,
      content: {
        paragraphs: [
          `We received ${formatUsd(payment.amount)} for your ${payment.planName} membership, once.`,
          `It pays for ${payment.period}.`,
        ],
        action: { label: "See your membership", url: appUrl("/membership") },
      },
      dedupeKey: `membership-receipt:${payment.paymentOrderId}`,
    },
    transaction,
  );
}

/**
 * Money a membership could not keep (a capture of another amount than the period costs): what
 * went back, where, and that the membership did not change. Not a receipt: nothing was bought.
 * Once per refund (the dedupe key).
 */
export async function queueMembershipRefundMail(refund: {
  userId: string;
  refundId: string;
  amount: string;
  planName: string;
  price: string;
  provider: string;
  captureId: string;
  /** The provider confirmed the refund; otherwise it is still on its way. */
  sent: boolean;
  /** Why it could not be kept when the period was paid by another checkout: "You already pay ...". */
  paidAlready?: string | null;
}) {
  const where = `the ${providerName(refund.provider)} account you paid with`;
  return queueMail({
    userId: refund.userId,
    topic: "membership_receipt",
    subject: `Refund: ${formatUsd(refund.amount)} for your ${refund.planName} membership`,
    content: {
      paragraphs: [
        refund.sent
          ? `We refunded ${formatUsd(refund.amount)} to ${where} (reference ${refund.captureId}).`
          : `We are refunding ${formatUsd(refund.amount)} to ${where} (reference ${refund.captureId}); the provider has not confirmed it yet, and we follow it until it does.`,
        refund.paidAlready
          ? `This checkout was for a period you had paid with another one: ${refund.paidAlready.replace(/^You already pay/, "you already pay")} One payment per period is kept; your membership has not changed.`
          : `${providerName(refund.provider) === "PayPal" ? "PayPal" : "The payment"} took ${formatUsd(refund.amount)} where the ${refund.planName} membership costs ${formatUsd(refund.price)}, so we could not keep it. Your membership has not changed and nothing else was charged.`,
      ],
      action: { label: "See your membership", url: appUrl("/membership") },
    },
    dedupeKey: `membership-refund:${refund.refundId}`,
  });
}
