// Deposits: the ledger, crediting what the provider captured (once per order), and refunds of
// the available part back through the provider. A user's `deposit` changes only together with a
// ledger entry, in one transaction, under a lock on the user row.
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { DepositEntry, type DepositEntryKind } from "~/models/deposit-entry.server";
import { PaymentOrder, PaymentRefund } from "~/models/payment.server";
import { User } from "~/models/user.server";
import { fromCents, toCents, formatUsd } from "~/utils/money";
import { DEPOSIT_MESSAGES, refundDestination, refundLimitMessage } from "~/services/deposits/rules";
import { env } from "~/platform/env.server";
import { paymentGateway, PaymentGatewayError } from "~/platform/payments/index.server";
import { createTestGateway, decideTestOrder } from "~/platform/payments/test-gateway.server";
import { UserError, type UserErrorOptions } from "~/utils/user-error";
import { availableBuyingPower } from "~/services/auctions/buying-power.server";
import { notify } from "~/platform/notifications.server";
import { queueDepositReceipt } from "./receipt-mail.server";
import { sendCaptureRefund } from "./capture-refunds.server";
import { sendRefund, type RefundSent } from "./send-refund.server";
import { queueRefundRetry, REFUND_RETRY, refundJobKey } from "./refund-retry-queue.server";
import {
  cancelPaymentOrder,
  createPaymentOrder,
  findUserPaymentOrder,
  settlePaymentOrder,
} from "./payments.server";
import { log } from "~/platform/log.server";

/**
 * A refusal the user caused or can act on (4xx), or the payment provider failing (502, with a
 * message that says what to do and no provider details). Routes answer it with errorJson or a
 * toast carrying its message.
 */
export class DepositError extends UserError {
  constructor(message: string, options: UserErrorOptions = {}) {
    super(message, options);
  }
}

export const CONFIRM_FAILED = DEPOSIT_MESSAGES.confirmFailed;

/** A provider failure as the DepositError people see; anything else is rethrown as it is. */
function providerFailed(error: unknown, message: string, step: string): never {
  if (!(error instanceof PaymentGatewayError)) throw error;
  log().error({ err: error, step }, "payment provider error");
  throw new DepositError(message, {
    status: 502,
    title: "Payment Error",
    code: "payment_provider",
  });
}

export const DEPOSIT_RETURN_PATH = "/deposit/return";
export const DEPOSIT_CANCEL_PATH = "/deposit/cancel";

/**
 * Adds a signed amount to the user's deposit and writes the entry that explains it. Must run
 * inside `transaction`; takes the user's row lock. The database refuses a negative balance.
 */
export async function postLedgerEntry(
  transaction: Transaction,
  entry: {
    userId: string;
    kind: DepositEntryKind;
    amount: string;
    memo?: string;
    paymentOrderId?: string | null;
    paymentRefundId?: string | null;
  },
): Promise<DepositEntry> {
  const rows = await sequelize.query<{ deposit: string }>(
    `update users set deposit = deposit + :amount, updated_at = now()
      where id = :userId returning deposit`,
    {
      replacements: { amount: entry.amount, userId: entry.userId },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  if (!rows[0]) throw new DepositError("User not found", { status: 404 });
  return DepositEntry.create(
    {
      userId: entry.userId,
      kind: entry.kind,
      amount: entry.amount,
      balanceAfter: rows[0].deposit,
      memo: entry.memo ?? "",
      paymentOrderId: entry.paymentOrderId ?? null,
      paymentRefundId: entry.paymentRefundId ?? null,
    },
    { transaction },
  );
}

async function lockUser(userId: string, transaction: Transaction) {
  return User.findByPk(userId, { transaction, lock: transaction.LOCK.UPDATE, rejectOnEmpty: true });
}

/**
 * Starts a deposit: an order at the provider and where to send the payer to approve it. Throws
 * DepositError (502) when the provider fails.
 */
export async function startDeposit(userId: string, amount: string) {
  try {
    return await createPaymentOrder({
      userId,
      purpose: "deposit",
      amount,
      description: `BidYard refundable deposit ${formatUsd(amount)}`,
      returnPath: DEPOSIT_RETURN_PATH,
      cancelPath: DEPOSIT_CANCEL_PATH,
    });
  } catch (error) {
    providerFailed(error, DEPOSIT_MESSAGES.startFailed, "start");
  }
}

/** What the provider's browser SDK needs; DepositError (502) when the provider fails. */
export async function paymentSetup() {
  const gateway = paymentGateway();
  try {
    return {
      clientToken: await gateway.clientToken(),
      clientId: gateway.testMode ? null : (env().PAYPAL_CLIENT_ID ?? null),
      testMode: gateway.testMode,
    };
  } catch (error) {
    providerFailed(error, DEPOSIT_MESSAGES.setupFailed, "setup");
  }
}

export type ConfirmedDeposit = {
  /** The balance after this confirmation, e.g. "3500.00". */
  newDeposit: string;
  /** What the provider captured for this order (credited once, whoever asked first). */
  captured: string;
  /** True for the one call that credited the order. */
  creditedNow: boolean;
};

/**
 * Captures the user's deposit order and credits exactly what the provider captured, once per
 * order. Any number of concurrent or repeated calls credit it once. Throws DepositError for an
 * unknown order (404) and when the provider fails (502).
 */
export async function confirmDeposit(
  userId: string,
  providerOrderId: string,
): Promise<ConfirmedDeposit> {
  const order = await findUserPaymentOrder(userId, providerOrderId, "deposit");
  if (!order) throw new DepositError(DEPOSIT_MESSAGES.unknownOrder, { status: 404 });
  const { order: settled, settledNow } = await settlePaymentOrder(
    order,
    async (locked, capture, transaction) => {
      await lockUser(userId, transaction);
      await postLedgerEntry(transaction, {
        userId,
        kind: "deposit",
        amount: capture.amount,
        paymentOrderId: locked.id,
        memo: `${locked.provider === "test" ? "Test payment" : "PayPal"} ${capture.captureId}`,
      });
      await queueDepositReceipt(
        {
          userId,
          paymentOrderId: locked.id,
          amount: capture.amount,
          provider: locked.provider,
          captureId: capture.captureId,
        },
        transaction,
      );
      await notify(
        userId,
        {
          kind: "deposit_received",
          title: `Deposit received: ${formatUsd(capture.amount)}`,
          body: "Your deposit has been added to your account.",
          link: "/deposit",
        },
        transaction,
      );
    },
    "any",
  ).catch((error: unknown) => providerFailed(error, DEPOSIT_MESSAGES.confirmFailed, "capture"));
  const user = await User.findByPk(userId, { rejectOnEmpty: true });
  return {
    newDeposit: user.deposit,
    captured: settled.capturedAmount ?? "0.00",
    creditedNow: settledNow,
  };
}

/** The payer cancelled at the provider: nothing is charged and nothing changes but the note. */
export async function cancelDeposit(userId: string, providerOrderId: string) {
  const order = await findUserPaymentOrder(userId, providerOrderId, "deposit");
  if (order) await cancelPaymentOrder(order);
}

/** Captured deposits not yet refunded, newest first: what a refund can go back against. */
async function refundableOrders(userId: string, transaction?: Transaction) {
  return PaymentOrder.findAll({
    where: { userId, purpose: "deposit", status: "captured" },
    order: [
      ["capturedAt", "DESC"],
      ["id", "ASC"],
    ],
    transaction,
    lock: transaction ? transaction.LOCK.UPDATE : undefined,
  });
}

export type RefundBreakdown = {
  /** The whole balance, e.g. "2500.00". */
  balance: string;
  /** What can go back now: the unheld part, and no more than was paid in and not refunded. */
  refundable: string;
  /** Held by the user's leading bids and unpaid purchases until they settle. */
  held: string;
  /**
   * Unheld, but with no provider capture to refund against (an adjustment put it there): only
   * support can pay it out.
   */
  unbacked: string;
};

/**
 * What the user can get back now, and why the rest of the balance cannot go back: the part their
 * bids and purchases hold, and the part that was never paid in through the provider.
 */
export async function refundBreakdown(
  userId: string,
  transaction?: Transaction,
): Promise<RefundBreakdown> {
  const user = await User.findByPk(userId, { transaction, rejectOnEmpty: true });
  const [availableText, orders] = await Promise.all([
    availableBuyingPower(user, transaction),
    refundableOrders(userId, transaction),
  ]);
  const available = toCents(availableText);
  const paidIn = orders.reduce(
    (sum, o) => sum + toCents(o.capturedAmount ?? "0") - toCents(o.refundedAmount),
    0,
  );
  const refundable = Math.max(0, Math.min(available, paidIn));
  return {
    balance: user.deposit,
    refundable: fromCents(refundable),
    held: fromCents(Math.max(0, toCents(user.deposit) - available)),
    unbacked: fromCents(Math.max(0, available - refundable)),
  };
}

/** What the user can get back now (see refundBreakdown). */
export async function refundableAmount(userId: string, transaction?: Transaction) {
  return (await refundBreakdown(userId, transaction)).refundable;
}

export type RefundOutcome = {
  /** Paid back by the provider. */
  refunded: string;
  /** Sent, but the provider's answer was unclear: retried later, still debited. */
  pending: string;
  /** Refused by the provider and credited back to the balance. */
  failed: string;
  newDeposit: string;
};

/**
 * Which captures `wanted` cents go back to, newest first; a DepositError (on refundAmount) when
 * more is asked than is unheld or than the provider can return. Under the user's lock when
 * refunding; without one for the review shown before (which the refund checks again).
 */
async function planRefund(userId: string, wanted: number, transaction?: Transaction) {
  const available = toCents(await availableBuyingPower(userId, transaction));
  if (wanted > available) {
    throw new DepositError(refundLimitMessage(fromCents(available), "held"), {
      field: "refundAmount",
    });
  }
  const orders = await refundableOrders(userId, transaction);
  let left = wanted;
  const plan: Array<{ order: PaymentOrder; cents: number }> = [];
  for (const order of orders) {
    const room = toCents(order.capturedAmount ?? "0") - toCents(order.refundedAmount);
    const take = Math.min(room, left);
    if (take > 0) plan.push({ order, cents: take });
    left -= take;
    if (left === 0) break;
  }
  if (left > 0) {
    throw new DepositError(refundLimitMessage(fromCents(wanted - left), "unbacked"), {
      field: "refundAmount",
    });
  }
  return plan;
}

export type RefundReview = {
  /** The amount to refund, "1000.00". */
  amount: string;
  /** Where it goes, in words: "the PayPal account you paid with". */
  destination: string;
  /** Each payment it goes back against: "$400.00 to your PayPal payment of Nov 20, 2026". */
  parts: Array<{ amount: string; provider: string; paidAt: string }>;
};

/**
 * What a refund of `amount` would do, for the confirmation step (docs/decisions/2808): the same
 * checks and the same captures as refundDeposit, and nothing moved.
 */
export async function reviewRefund(userId: string, amount: string): Promise<RefundReview> {
  const wanted = toCents(amount);
  if (wanted <= 0)
    throw new DepositError(DEPOSIT_MESSAGES.refundAboveZero, { field: "refundAmount" });
  const plan = await planRefund(userId, wanted);
  return {
    amount: fromCents(wanted),
    destination: refundDestination(plan.map((part) => part.order.provider)),
    parts: plan.map(({ order, cents }) => ({
      amount: fromCents(cents),
      provider: order.provider,
      paidAt: (order.capturedAt ?? order.createdAt).toISOString(),
    })),
  };
}

/**
 * Refunds `amount` of the user's available deposit through the provider, against the newest
 * captures first. The balance and the ledger are debited before the provider is asked (so two
 * requests can never refund the same money); a part the provider refuses is credited back with an
 * adjustment entry, a part with an unclear answer stays pending for its retry_refund job (queued
 * with the refund, record 3564).
 */
export async function refundDeposit(userId: string, amount: string): Promise<RefundOutcome> {
  const wanted = toCents(amount);
  if (wanted <= 0)
    throw new DepositError(DEPOSIT_MESSAGES.refundAboveZero, { field: "refundAmount" });

  const parts = await sequelize.transaction(async (transaction) => {
    await lockUser(userId, transaction);
    const plan = await planRefund(userId, wanted, transaction);
    const created: Array<{ refund: PaymentRefund; order: PaymentOrder }> = [];
    for (const { order, cents } of plan) {
      order.refundedAmount = fromCents(toCents(order.refundedAmount) + cents);
      await order.save({ transaction });
      const refund = await PaymentRefund.create(
        { paymentOrderId: order.id, userId, amount: fromCents(cents) },
        { transaction },
      );
      await queueRefundRetry(refund.id, transaction);
      await postLedgerEntry(transaction, {
        userId,
        kind: "refund",
        amount: fromCents(-cents),
        paymentOrderId: order.id,
        paymentRefundId: refund.id,
        memo: `Refund to ${order.provider === "test" ? "test payment" : "PayPal"} ${order.captureId}`,
      });
      created.push({ refund, order });
    }
    return created;
  });

  const totals = { completed: 0, pending: 0, failed: 0 };
  for (const { refund, order } of parts) {
    totals[await sendDepositRefund(refund, order)] += toCents(refund.amount);
  }
  const user = await User.findByPk(userId, { rejectOnEmpty: true });
  return {
    refunded: fromCents(totals.completed),
    pending: fromCents(totals.pending),
    failed: fromCents(totals.failed),
    newDeposit: user.deposit,
  };
}

/**
 * Sends one recorded deposit refund to the provider (sendRefund). A refusal puts the money back
 * with an adjustment entry; an unclear answer (timeout, 5xx) leaves the refund pending for its
 * retry_refund job, since the provider may have paid it out.
 */
function sendDepositRefund(refund: PaymentRefund, order: PaymentOrder): Promise<RefundSent> {
  return sendRefund(refund, order, async () => {
    if (order.purpose !== "deposit") {
      throw new Error(
        `refund ${refund.id} is not a deposit's: it is never credited to the deposit`,
      );
    }
    await sequelize.transaction(async (transaction) => {
      await lockUser(refund.userId, transaction);
      const [, changed] = await PaymentRefund.update(
        { status: "failed" },
        { where: { id: refund.id, status: "pending" }, transaction, returning: true },
      );
      if (changed.length === 0) return; // someone else settled it already
      const lockedOrder = await PaymentOrder.findByPk(order.id, {
        transaction,
        lock: transaction.LOCK.UPDATE,
        rejectOnEmpty: true,
      });
      lockedOrder.refundedAmount = fromCents(
        toCents(lockedOrder.refundedAmount) - toCents(refund.amount),
      );
      await lockedOrder.save({ transaction });
      await postLedgerEntry(transaction, {
        userId: refund.userId,
        kind: "adjustment",
        amount: refund.amount,
        paymentOrderId: order.id,
        memo: "Refund refused by the provider; returned to your balance",
      });
    });
  });
}

/** What one try of a recorded refund came to; `settled-before` when it was not pending. */
export type RefundTry = "completed" | "failed" | "settled-before";

/** A refund the provider gave no clear answer about (yet): its job throws this to be retried. */
export class RefundStillPending extends Error {}

/**
 * One try of a recorded refund, as its retry_refund job runs it (record 3564), each by its kind
 * (record 3502): a deposit's through `sendDepositRefund`, any other capture's through
 * `sendCaptureRefund` (both send with `sendRefund`). No transaction is open while the provider is asked; the outcome is
 * written only if the row is still pending (a conditional update), and the provider is always
 * asked with the refund's own request id, so two tries at once (two workers, a job run again)
 * pay it out once and record it once. An unclear answer throws RefundStillPending, for the queue
 * to try again later; on the last try a non-deposit refund becomes an open case for a person
 * (/admin/refunds), while a deposit's stays pending with its failed job on /admin/jobs (crediting
 * it back could pay the money twice).
 */
export async function retryRefund(
  refundId: string,
  options: { attempt?: number; maxAttempts?: number } = {},
): Promise<RefundTry> {
  const refund = await PaymentRefund.findByPk(refundId);
  if (!refund || refund.status !== "pending") return "settled-before";
  const order = await PaymentOrder.findByPk(refund.paymentOrderId, { rejectOnEmpty: true });
  const outcome =
    order.purpose === "deposit"
      ? await sendDepositRefund(refund, order)
      : await sendCaptureRefund(refund, order);
  if (outcome !== "pending") return outcome;
  const last =
    options.attempt !== undefined &&
    options.maxAttempts !== undefined &&
    options.attempt >= options.maxAttempts;
  if (last && order.purpose !== "deposit") {
    const [count] = await PaymentRefund.update(
      {
        status: "failed",
        failureReason:
          `No clear answer from the provider after ${options.attempt} tries: ` +
          "look the capture up at the provider before paying it back",
      },
      { where: { id: refund.id, status: "pending" } },
    );
    if (count === 1) {
      log().error(
        { refund_id: String(refund.id) },
        "refund still unclear after its last try: it needs a person",
      );
      return "failed";
    }
    return "settled-before";
  }
  throw new RefundStillPending(`refund ${refund.id}: no clear answer from the provider yet`);
}

/**
 * The safety net behind the per-refund jobs (record 3564), run hourly: a refund pending for over
 * REFUND_RETRY.firstAfterMs with no job at all (a job discarded on /admin/jobs, a row written
 * by hand) gets one. A refund whose job failed its last try keeps that job, for a person.
 * Returns how many were queued.
 */
export async function queueMissingRefundRetries(): Promise<number> {
  const rows = await sequelize.query<{ id: string }>(
    `SELECT (graphile_worker.add_job('retry_refund', json_build_object('refundId', r.id::text),
               max_attempts => :maxAttempts, job_key => :prefix || r.id, priority => -5,
               job_key_mode => 'preserve_run_at')).id::text AS id
       FROM payment_refunds r
      WHERE r.status = 'pending' AND r.created_at < :before
        AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = :prefix || r.id)`,
    {
      replacements: {
        maxAttempts: REFUND_RETRY.maxAttempts,
        prefix: refundJobKey(""),
        before: new Date(Date.now() - REFUND_RETRY.firstAfterMs),
      },
      type: QueryTypes.SELECT,
    },
  );
  return rows.length;
}

/**
 * Gives a user an opening balance through the ledger (demo data, migrations of old balances).
 * Does nothing when the user already has ledger entries, so it is safe to run again.
 */
export async function recordOpeningBalance(userId: string, amount: string) {
  await sequelize.transaction(async (transaction) => {
    const user = await lockUser(userId, transaction);
    const entries = await DepositEntry.count({ where: { userId }, transaction });
    if (entries > 0) return;
    // A balance set before the ledger existed is replaced by the opening entry, not added to.
    if (toCents(user.deposit) !== 0) {
      await sequelize.query("update users set deposit = 0 where id = :userId", {
        replacements: { userId },
        transaction,
      });
    }
    await postLedgerEntry(transaction, {
      userId,
      kind: "adjustment",
      amount,
      memo: "Opening balance",
    });
  });
}

/**
 * Demo money paid in the way a real deposit is: a TEST MODE order at the test gateway, approved
 * there and credited by `confirmDeposit` (a captured order and its 'deposit' ledger entry), so it
 * can be refunded like any deposit. Does nothing once the user has ledger entries, and finishes
 * an order an interrupted run left behind, so it is safe to run again. Where test payments are
 * not allowed, `confirmDeposit` refuses it.
 */
export async function seedTestDeposit(userId: string, amount: string) {
  if ((await DepositEntry.count({ where: { userId } })) > 0) return;
  const order =
    (await PaymentOrder.findOne({
      where: { userId, purpose: "deposit", provider: "test", status: "created", amount },
    })) ??
    (
      await createPaymentOrder({
        userId,
        purpose: "deposit",
        amount,
        description: `BidYard refundable deposit ${formatUsd(amount)} (demo data)`,
        returnPath: DEPOSIT_RETURN_PATH,
        cancelPath: DEPOSIT_CANCEL_PATH,
        gateway: createTestGateway(),
      })
    ).order;
  await decideTestOrder(order.providerOrderId, true);
  await confirmDeposit(userId, order.providerOrderId);
}

export type DepositPageData = {
  balance: string;
  /** Deposit minus what bids and purchases hold: the buying power every screen shows. */
  available: string;
  refund: RefundBreakdown;
  testMode: boolean;
  history: Array<{
    id: string;
    kind: DepositEntryKind;
    amount: string;
    balanceAfter: string;
    memo: string;
    createdAt: string;
  }>;
};

/** Everything the deposit screen shows about the user's money. */
export async function depositPageData(userId: string): Promise<DepositPageData> {
  const [refund, entries] = await Promise.all([
    refundBreakdown(userId),
    DepositEntry.findAll({
      where: { userId },
      order: [
        ["createdAt", "DESC"],
        ["id", "DESC"],
      ],
      limit: 50,
    }),
  ]);
  return {
    balance: refund.balance,
    available: fromCents(toCents(refund.balance) - toCents(refund.held)),
    refund,
    testMode: paymentGateway().testMode,
    history: entries.map((entry) => ({
      id: String(entry.id),
      kind: entry.kind,
      amount: entry.amount,
      balanceAfter: entry.balanceAfter,
      memo: entry.memo,
      createdAt: entry.createdAt.toISOString(),
    })),
  };
}

/** The ledger and the balance agree: for checks and tests. */
export async function ledgerTotal(userId: string) {
  const rows = await sequelize.query<{ total: string }>(
    "select coalesce(sum(amount), 0)::numeric(12, 2)::text as total from deposit_entries where user_id = :userId",
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  return rows[0].total;
}
