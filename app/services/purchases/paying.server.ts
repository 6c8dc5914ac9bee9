// Paying a purchase (docs/decisions/1703): the deposit first, the rest through the payments
// gateway. Settling happens once, under the purchase's row lock: the deposit debit, the capture
// and the purchase's own ledger entries commit together or not at all, and the purchase's hold
// on the deposit ends with its 'pending' status.
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { postLedgerEntry } from "~/services/deposits/deposits.server";
import {
  cancelPaymentOrder,
  closePaymentOrders,
  createPaymentOrder,
  findUserPaymentOrder,
} from "~/services/deposits/payments.server";
import { now } from "~/platform/clock.server";
import { notify } from "~/platform/notifications.server";
import { settleCheckout } from "~/services/deposits/settle.server";
import { PaymentGatewayError } from "~/platform/payments/index.server";
import { formatUsd, fromCents, toCents } from "~/utils/money";
import { linesTotal } from "./fees";
import { PurchaseError } from "./errors";
import {
  depositAvailableFor,
  findOwnPurchase,
  findPurchase,
  lotTitle,
  purchaseLines,
  splitFor,
  type PaySource,
  type PurchaseRow,
} from "./invoices.server";
import { queuePurchaseMail } from "./mail.server";
import { loadTerms } from "./schedules.server";
import { log } from "~/platform/log.server";

export const PURCHASE_RETURN_PATH = "/purchases/return";
export const PURCHASE_CANCEL_PATH = "/purchases/cancel";

export const PAYING_MESSAGES = {
  notPending: "This purchase is not awaiting payment.",
  amountChanged: "The amount to pay has changed. Please check the invoice and pay again.",
  depositChanged: "Your deposit no longer covers its part of this payment. Please pay again.",
  unknownOrder: "We could not find that payment.",
  orderClosed: "This checkout is closed. Please pay again from the invoice.",
  providerFailed: "The payment did not go through. Nothing was charged; please try again.",
} as const;

/** What a second payment of a paid invoice is told: where it lands, it was paid once. */
export const PAID_ONCE = {
  title: "This invoice is paid (once)",
  description:
    "It was paid once and nothing more was charged. Your release and pickup code are ready.",
} as const;

/** A paid purchase asked to be paid again: the route sends the buyer to its invoice. */
export class AlreadyPaidError extends PurchaseError {
  constructor(readonly purchaseId: string) {
    super("This purchase is already paid.", { status: 409, code: "purchase_paid" });
  }
}

function notPending(row: PurchaseRow) {
  if (row.status === "paid") return new AlreadyPaidError(String(row.id));
  return new PurchaseError(PAYING_MESSAGES.notPending, {
    status: 409,
    code: `purchase_${row.status}`,
  });
}

/**
 * Closes the checkouts still open for a purchase that is no longer awaiting payment (paid,
 * defaulted): none of them can be approved and captured again (docs/decisions/2753). Runs after
 * the payment commits; a checkout started meanwhile closes itself (payPurchase).
 */
export async function closeOpenCheckouts(purchaseId: string) {
  return closePaymentOrders(await openCheckoutsOfSettled(purchaseId));
}

/** The open checkouts of a purchase that is no longer awaiting payment (none while pending). */
async function openCheckoutsOfSettled(purchaseId: string) {
  const open = await sequelize.query<{ id: string }>(
    `SELECT o.id FROM payment_orders o
       JOIN purchase_payment_orders p ON p.payment_order_id = o.id
       JOIN purchases u ON u.id = p.purchase_id
      WHERE p.purchase_id = :purchaseId AND o.status = 'created' AND u.status <> 'pending'`,
    { replacements: { purchaseId }, type: QueryTypes.SELECT },
  );
  return open.map((o) => String(o.id));
}

async function lockBuyer(userId: string, transaction: Transaction) {
  // the same lock strength place_bid takes on the bidder: bids and this payment take turns
  await sequelize.query("SELECT id FROM users WHERE id = :userId FOR NO KEY UPDATE", {
    replacements: { userId },
    transaction,
  });
}

/** Writes the payment: the deposit debit, the purchase's ledger entries, paid; notifies. */
async function settle(
  transaction: Transaction,
  row: PurchaseRow,
  parts: {
    depositCents: number;
    gatewayCents: number;
    lateFeeCents: number;
    orderId: string | null;
  },
) {
  if (parts.depositCents > 0) {
    const entry = await postLedgerEntry(transaction, {
      userId: row.user_id,
      kind: "applied",
      amount: fromCents(-parts.depositCents),
      memo: `Applied to purchase ${row.id} (lot ${row.lot_number})`,
    });
    await sequelize.query(
      `UPDATE deposit_entries SET purchase_id = :purchaseId WHERE id = :entryId;
       INSERT INTO purchase_entries (purchase_id, user_id, kind, amount, deposit_entry_id)
       VALUES (:purchaseId, :userId, 'deposit', :amount, :entryId)`,
      {
        replacements: {
          purchaseId: row.id,
          entryId: entry.id,
          userId: row.user_id,
          amount: fromCents(parts.depositCents),
        },
        transaction,
      },
    );
  }
  if (parts.gatewayCents > 0) {
    await sequelize.query(
      `INSERT INTO purchase_entries (purchase_id, user_id, kind, amount, payment_order_id)
       VALUES (:purchaseId, :userId, 'gateway', :amount, :orderId)`,
      {
        replacements: {
          purchaseId: row.id,
          userId: row.user_id,
          amount: fromCents(parts.gatewayCents),
          orderId: parts.orderId,
        },
        transaction,
      },
    );
  }
  await sequelize.query(
    `UPDATE purchases SET status = 'paid', paid_at = :at, late_fee = :lateFee, updated_at = now()
      WHERE id = :id AND status = 'pending'`,
    {
      replacements: { id: row.id, at: now(), lateFee: fromCents(parts.lateFeeCents) },
      transaction,
    },
  );
  await notify(
    row.user_id,
    {
      kind: "purchase_paid",
      title: "Purchase paid",
      body: `${lotTitle(row)} (lot ${row.lot_number}) is paid: ${formatUsd(parts.depositCents + parts.gatewayCents, "cents")}. Your release and pickup code are ready.`,
      link: `/purchases/${row.id}/release`,
    },
    transaction,
  );
  // the receipt and the release, by e-mail, in the same commit (docs/decisions/2754)
  await queuePurchaseMail("paid", row.id, transaction);
  await queuePurchaseMail("release", row.id, transaction);
}

export type PayOutcome = { paid: true } | { paid: false; approvalUrl: string };

/**
 * Pays the buyer's purchase: `expectedGateway` is the gateway part the buyer was shown (a decimal
 * string); anything else is refused (409), so a stale or edited form never charges a different
 * amount. When the deposit covers everything, the purchase is paid at once; otherwise a gateway
 * order is started for the rest and the buyer is sent to approve it.
 */
export async function payPurchase(
  userId: string,
  purchaseId: string,
  expectedGateway: string,
  // the buyer's explicit choice (record 3313); "deposit" is how an invoice was paid before it
  source: PaySource = "deposit",
): Promise<PayOutcome> {
  const terms = await loadTerms();
  const plan = await sequelize.transaction(async (transaction) => {
    const row = await findOwnPurchase(userId, purchaseId, transaction);
    if (row.status !== "pending") throw notPending(row);
    await lockBuyer(userId, transaction);
    const at = now();
    const lines = purchaseLines(row, terms, at);
    const totalCents = linesTotal(lines);
    const split = splitFor(
      source,
      totalCents,
      await depositAvailableFor(row, terms, at, transaction),
    );
    if (split.gatewayCents !== toCents(expectedGateway)) {
      throw new PurchaseError(PAYING_MESSAGES.amountChanged, {
        status: 409,
        code: "amount_changed",
      });
    }
    const lateFeeCents = lines.find((l) => l.code === "late_fee")?.cents ?? 0;
    if (split.gatewayCents === 0) {
      await settle(transaction, row, { ...split, lateFeeCents, orderId: null });
    }
    return { row, totalCents, lateFeeCents, ...split };
  });
  if (plan.gatewayCents === 0) {
    await closeOpenCheckouts(plan.row.id);
    return { paid: true };
  }

  let started;
  try {
    started = await createPaymentOrder({
      userId,
      purpose: "purchase",
      amount: fromCents(plan.gatewayCents),
      description: `BidYard purchase ${plan.row.id}: ${lotTitle(plan.row)}`.slice(0, 127),
      returnPath: PURCHASE_RETURN_PATH,
      cancelPath: PURCHASE_CANCEL_PATH,
    });
  } catch (error) {
    if (!(error instanceof PaymentGatewayError)) throw error;
    log().error({ err: error, step: "purchase start" }, "payment provider error");
    throw new PurchaseError(PAYING_MESSAGES.providerFailed, {
      status: 502,
      code: "payment_provider",
    });
  }
  await sequelize.query(
    `INSERT INTO purchase_payment_orders (payment_order_id, purchase_id, total, deposit_part, late_fee)
     VALUES (:orderId, :purchaseId, :total, :depositPart, :lateFee)`,
    {
      replacements: {
        orderId: started.order.id,
        purchaseId: plan.row.id,
        total: fromCents(plan.totalCents),
        depositPart: fromCents(plan.depositCents),
        lateFee: fromCents(plan.lateFeeCents),
      },
    },
  );
  // Paid in another window while this checkout was being started: it is closed at once, so it
  // cannot be approved for an invoice that is already paid.
  if ((await closeOpenCheckouts(plan.row.id)) > 0) {
    const current = await findPurchase(plan.row.id);
    if (current) throw notPending(current);
  }
  return { paid: false, approvalUrl: started.approvalUrl };
}

/**
 * The buyer approved the gateway part: under the purchase's lock, check it is still unpaid and
 * the deposit still covers its part, capture at the gateway, then write everything. A paid
 * purchase refuses (409) before anything is captured; a gateway failure rolls it all back.
 * Answers the purchase id.
 */
export async function confirmPurchasePayment(userId: string, providerOrderId: string) {
  const order = await findUserPaymentOrder(userId, providerOrderId, "purchase");
  if (!order) throw new PurchaseError(PAYING_MESSAGES.unknownOrder, { status: 404 });
  const [plan] = await sequelize.query<{
    purchase_id: string;
    total: string;
    deposit_part: string;
    late_fee: string;
  }>("SELECT * FROM purchase_payment_orders WHERE payment_order_id = :id", {
    replacements: { id: order.id },
    type: QueryTypes.SELECT,
  });
  if (!plan) throw new PurchaseError(PAYING_MESSAGES.unknownOrder, { status: 404 });
  const terms = await loadTerms();
  const purchaseId = String(plan.purchase_id);
  // one settle mechanism for every payable (see record 3201): the purchase's row, then the
  // checkout's, locked; captured only while the purchase is pending; its other checkouts voided
  const settled = await settleCheckout(
    order,
    {
      async lock(transaction) {
        // the capture waits on the gateway with this lock held: a second confirmation of the
        // same purchase is turned away at once (409) instead of queueing on the lock
        const row = await findOwnPurchase(userId, purchaseId, transaction, { nowait: true });
        // paid another way: this checkout is voided uncaptured (settleCheckout)
        if (row.status === "paid") return { state: "paid" as const };
        if (row.status !== "pending") throw notPending(row);
        await lockBuyer(userId, transaction);
        // The invoice as it stands now: a checkout started before the due date and approved
        // after it would otherwise settle without the late fee. Nothing is captured when the
        // total moved.
        const at = now();
        if (linesTotal(purchaseLines(row, terms, at)) !== toCents(plan.total)) {
          throw new PurchaseError(PAYING_MESSAGES.amountChanged, {
            status: 409,
            code: "amount_changed",
          });
        }
        if ((await depositAvailableFor(row, terms, at, transaction)) < toCents(plan.deposit_part)) {
          throw new PurchaseError(PAYING_MESSAGES.depositChanged, {
            status: 409,
            code: "deposit_changed",
          });
        }
        return { state: "open" as const, amount: order.amount, row };
      },
      async paid(locked, capture, transaction, state) {
        await settle(transaction, state.row, {
          depositCents: toCents(plan.deposit_part),
          gatewayCents: toCents(capture.amount),
          lateFeeCents: toCents(plan.late_fee),
          orderId: locked.id,
        });
      },
      openCheckouts: () => openCheckoutsOfSettled(purchaseId),
    },
    () =>
      new PurchaseError("This purchase is being paid in another window.", {
        status: 409,
        code: "purchase_busy",
      }),
  ).catch((error: unknown) => {
    if (!(error instanceof PaymentGatewayError)) throw error;
    log().error({ err: error, step: "purchase capture" }, "payment provider error");
    throw new PurchaseError(PAYING_MESSAGES.providerFailed, {
      status: 502,
      code: "payment_provider",
    });
  });
  // a checkout the buyer turned back from (or one already captured) is not captured now
  if (
    settled.outcome === "settled-before" ||
    (settled.outcome === "voided" && settled.reason === "paid")
  ) {
    throw new AlreadyPaidError(purchaseId);
  }
  if (settled.outcome !== "paid") {
    throw new PurchaseError(PAYING_MESSAGES.orderClosed, { status: 409, code: "order_closed" });
  }
  return purchaseId;
}

/** The buyer turned back at the gateway: nothing was charged. Answers the purchase id, if known. */
export async function cancelPurchasePayment(userId: string, providerOrderId: string) {
  const order = await findUserPaymentOrder(userId, providerOrderId, "purchase");
  if (!order) return null;
  await cancelPaymentOrder(order);
  const [plan] = await sequelize.query<{ purchase_id: string }>(
    "SELECT purchase_id FROM purchase_payment_orders WHERE payment_order_id = :id",
    { replacements: { id: order.id }, type: QueryTypes.SELECT },
  );
  return plan ? String(plan.purchase_id) : null;
}
