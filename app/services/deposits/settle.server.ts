// One way to settle a payable (docs/decisions/3201-one-way-to-settle-a-payable.md): an invoice, a
// transport order, a deposit order, a membership period. Whatever the path (the deposit, a
// gateway return, a JSON call, a form post, several tabs), the payable's row is locked in the
// transaction that writes the payment; a checkout is captured only under that lock and only while
// the payable is unpaid and the checkout is still its own; once paid, its other open checkouts
// are voided; a capture that cannot pay it is refunded at the gateway (a payment_refunds row),
// never parked in the deposit.
import type { Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { PaymentOrder, PaymentRefund } from "~/models/payment.server";
import {
  gatewayFor,
  PaymentGatewayError,
  type CaptureResult,
} from "~/platform/payments/index.server";
import { toCents } from "~/utils/money";
import { closePaymentOrders } from "./payments.server";
import { sendCaptureRefund } from "./capture-refunds.server";
import { queueRefundRetry } from "./refund-retry-queue.server";
import { log } from "~/platform/log.server";

/** What the payable says about itself once its row is locked. */
export type PayableState =
  /**
   * unpaid, and this checkout may pay it: `amount` is what the capture must be (null: whatever
   * is captured is the payment, as for a deposit top-up)
   */
  | { state: "open"; amount: string | null }
  /** paid already (by this checkout or another way) */
  | { state: "paid" }
  /** unpaid, but this checkout is not the one that pays it (replaced, defaulted, cancelled) */
  | { state: "closed" };

/** The open state, with whatever else the payable read under its lock (`paid` gets it back). */
type Open<S extends PayableState> = Extract<S, { state: "open" }>;

export interface Payable<T, S extends PayableState = PayableState> {
  /**
   * Locks the payable's row (SELECT ... FOR UPDATE, NOWAIT where the caller wants waiters turned
   * away; see `lockBusy`) and tells its state. May throw a refusal: nothing is captured then.
   */
  lock(transaction: Transaction, payment: PaymentOrder): Promise<S>;
  /** Writes the payable paid by `capture`, in the same transaction (charge row, ledger, mail). */
  paid(
    payment: PaymentOrder,
    capture: CaptureResult,
    transaction: Transaction,
    state: Open<S>,
  ): Promise<T>;
  /** The payable's checkouts still open (payment_orders ids), voided once it is paid. */
  openCheckouts(): Promise<string[]>;
  /**
   * A checkout the payer turned back from may still be approved and settled later (a deposit, a
   * membership: the checkout is the payable); otherwise such a checkout is never captured.
   */
  settlesTurnedBack?: boolean;
  /**
   * Before a checkout is closed uncaptured, ask the gateway whether it was captured all the same
   * (an earlier capture whose answer was lost): such money is recorded and refunded, never left
   * at the gateway (docs/decisions/3501).
   */
  findsLostCaptures?: boolean;
}

export type SettleOutcome<T> =
  /** this call captured the checkout and paid the payable */
  | { outcome: "paid"; result: T; payment: PaymentOrder }
  /** the checkout had been captured and settled before (a repeat or a race): nothing more */
  | { outcome: "settled-before"; payment: PaymentOrder }
  /** not captured: the payable is paid another way, or this checkout cannot pay it; voided */
  | { outcome: "voided"; reason: "paid" | "closed"; payment: PaymentOrder }
  /** captured, but not for what the payable costs: refunded at the gateway, payable unpaid */
  | { outcome: "refunded"; refund: PaymentRefund; payment: PaymentOrder };

/** PostgreSQL's lock_not_available: a NOWAIT lock another transaction holds. */
export function lockBusy(error: unknown) {
  return (error as { original?: { code?: string } }).original?.code === "55P03";
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` (a transaction that takes its payable's lock with NOWAIT) again while the lock is
 * held elsewhere: the waiter gives its connection back between tries, so a burst of requests for
 * one payable never fills the pool while the holder needs a connection for the gateway.
 * `onBusy` is thrown once `patienceMs` has passed.
 */
export async function retryWhileLocked<T>(
  work: () => Promise<T>,
  onBusy: () => Error,
  patienceMs = 15_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!lockBusy(error)) throw error;
      if (Date.now() - started > patienceMs) throw onBusy();
      await sleep(20 + Math.random() * 60);
    }
  }
}

/** Captures `locked` at its gateway (same key every time, so a retry never charges twice). */
async function captureAtGateway(locked: PaymentOrder) {
  const capture = await gatewayFor(locked.provider).captureOrder(locked.providerOrderId, {
    idempotencyKey: `capture-${locked.id}`,
  });
  if (capture.providerOrderId !== locked.providerOrderId || capture.currency !== locked.currency) {
    throw new PaymentGatewayError("invalid_response", "The capture does not match the order");
  }
  if (capture.status !== "COMPLETED") {
    throw new PaymentGatewayError("declined", `The capture is ${capture.status}`, capture.status);
  }
  return capture;
}

/**
 * Records a capture the payable cannot keep and its refund (sent once the transaction commits):
 * money the payable cannot take goes back where it came from, with its row, never to the deposit.
 */
async function refundUnwanted(
  locked: PaymentOrder,
  capture: CaptureResult,
  transaction: Transaction,
  why: string,
): Promise<{ outcome: "refunded"; refund: PaymentRefund; payment: PaymentOrder }> {
  locked.status = "captured";
  locked.capturedAmount = capture.amount;
  locked.captureId = capture.captureId;
  locked.capturedAt = new Date();
  locked.refundedAmount = capture.amount;
  await locked.save({ transaction });
  const refund = await PaymentRefund.create(
    { paymentOrderId: locked.id, userId: locked.userId, amount: capture.amount },
    { transaction },
  );
  await queueRefundRetry(refund.id, transaction);
  log().error(
    { capture_id: capture.captureId, amount: capture.amount, why },
    "capture not kept; refunding",
  );
  return { outcome: "refunded", refund, payment: locked };
}

/** The checkout's capture at the gateway if it happened after all; null when not, or unknown. */
async function lostCapture(locked: PaymentOrder) {
  if (locked.status !== "created" && locked.status !== "cancelled") return null;
  try {
    const capture = await gatewayFor(locked.provider).capturedBefore(locked.providerOrderId);
    if (!capture || capture.status !== "COMPLETED") return null;
    if (capture.currency !== locked.currency) return null;
    return capture;
  } catch (error) {
    // closed all the same; a later return of this checkout asks again
    log().error(
      { err: error, payment_order_id: String(locked.id) },
      "could not ask whether the checkout was captured",
    );
    return null;
  }
}

/**
 * Settles one checkout of one payable, once, however many requests run it at once (see record
 * 3201). The payable's lock is taken first, then the checkout's; the gateway is asked to capture
 * only while both are held and the payable is open. Throws the payable's own refusals and
 * PaymentGatewayError (nothing written); `busy` when the lock stays taken too long.
 */
export async function settleCheckout<T, S extends PayableState>(
  payment: PaymentOrder,
  payable: Payable<T, S>,
  busy: () => Error,
): Promise<SettleOutcome<T>> {
  const outcome = await retryWhileLocked(
    () =>
      sequelize.transaction(async (transaction): Promise<SettleOutcome<T>> => {
        const state = await payable.lock(transaction, payment);
        const locked = await PaymentOrder.findByPk(payment.id, {
          transaction,
          lock: transaction.LOCK.UPDATE,
          rejectOnEmpty: true,
        });
        if (locked.status === "captured") return { outcome: "settled-before", payment: locked };
        if (state.state !== "open") {
          const lost = payable.findsLostCaptures ? await lostCapture(locked) : null;
          if (lost) return refundUnwanted(locked, lost, transaction, "not owed any more");
          return { outcome: "voided", reason: state.state, payment: locked };
        }
        // turned back from, or closed: never captured now
        const turnedBack = locked.status === "cancelled" && payable.settlesTurnedBack;
        if (locked.status !== "created" && !turnedBack) {
          return { outcome: "voided", reason: "closed", payment: locked };
        }
        const capture = await captureAtGateway(locked);
        if (state.amount !== null && toCents(capture.amount) !== toCents(state.amount)) {
          return refundUnwanted(locked, capture, transaction, `not the ${state.amount} owed`);
        }
        locked.status = "captured";
        locked.capturedAmount = capture.amount;
        locked.captureId = capture.captureId;
        locked.capturedAt = new Date();
        await locked.save({ transaction });
        const result = await payable.paid(locked, capture, transaction, state as Open<S>);
        return { outcome: "paid", result, payment: locked };
      }),
    busy,
  );
  if (outcome.outcome === "refunded") await sendCaptureRefund(outcome.refund, outcome.payment);
  if (outcome.outcome === "voided") await closePaymentOrders([outcome.payment.id]);
  if (outcome.outcome !== "refunded") await closePaymentOrders(await payable.openCheckouts());
  return outcome;
}
