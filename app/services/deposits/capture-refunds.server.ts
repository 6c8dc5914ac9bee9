// Refunds of captures that never belonged to the deposit (docs/decisions/3502): a transport
// order's, an invoice's or a membership's capture the payable could not keep (record 3201's
// `refunded` outcome). Each is sent, and sent again while the provider's answer is unclear, with
// its own request id; when the provider refuses it for good, the money is still the payer's and
// still with us: the refund waits in the admin list of refunds that need a person (with the
// provider's reason), and is never credited to the deposit. Deposit refunds keep their own rules
// (deposits.server.ts: a refused one goes back to the balance it came from).
import { Op, QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { PaymentOrder, PaymentRefund } from "~/models/payment.server";
import { type PaymentGatewayError } from "~/platform/payments/index.server";
import { log } from "~/platform/log.server";
import { sendRefund, type RefundSent } from "./send-refund.server";

/** What a provider's refusal is called in the admin list: its issue and its words. */
function reasonOf(error: PaymentGatewayError) {
  return [error.providerIssue, error.message].filter(Boolean).join(": ").slice(0, 500);
}

/**
 * Sends one refund of a capture that was never the deposit's (sendRefund). A definite refusal:
 * the refund is `failed` with the provider's reason, an open case for a person. An unclear
 * answer: still pending, for its retry_refund job (record 3564).
 */
export function sendCaptureRefund(refund: PaymentRefund, order: PaymentOrder): Promise<RefundSent> {
  return sendRefund(refund, order, async (error) => {
    await PaymentRefund.update(
      { status: "failed", failureReason: reasonOf(error) },
      { where: { id: refund.id, status: "pending" } },
    );
    log().error(
      { refund_id: String(refund.id) },
      "refund refused by the provider: it needs a person",
    );
  });
}

export type RefundCase = {
  id: string;
  payerId: string;
  payerName: string;
  payerEmail: string;
  amount: string;
  /** What the capture was for: service_order, purchase, membership. */
  purpose: string;
  provider: string;
  /** The provider's capture the refund goes against: what support looks up there. */
  captureId: string;
  reason: string;
  refusedAt: string;
};

const OPEN_CASES = `FROM payment_refunds r
  JOIN payment_orders o ON o.id = r.payment_order_id
 WHERE r.status = 'failed' AND r.resolved_at IS NULL AND o.purpose <> 'deposit'`;

/** Refused refunds of money that was never the deposit's, not settled by a person yet: oldest first. */
export async function refundsNeedingAPerson(): Promise<RefundCase[]> {
  const rows = await sequelize.query<{
    id: string;
    user_id: string;
    first_name: string | null;
    last_name: string | null;
    email: string | null;
    amount: string;
    purpose: string;
    provider: string;
    capture_id: string | null;
    failure_reason: string | null;
    updated_at: Date;
  }>(
    `SELECT r.id, r.user_id, u.first_name, u.last_name, u.email, r.amount::text AS amount,
            o.purpose, o.provider, o.capture_id, r.failure_reason, r.updated_at
       ${OPEN_CASES.replace("JOIN payment_orders o", "JOIN users u ON u.id = r.user_id JOIN payment_orders o")}
      ORDER BY r.created_at ASC, r.id ASC
      LIMIT 500`,
    { type: QueryTypes.SELECT },
  );
  return rows.map((row) => ({
    id: row.id,
    payerId: row.user_id,
    payerName: [row.first_name, row.last_name].filter(Boolean).join(" ") || "(no name)",
    payerEmail: row.email ?? "",
    amount: row.amount,
    purpose: row.purpose,
    provider: row.provider,
    captureId: row.capture_id ?? "",
    reason: row.failure_reason ?? "Refused by the provider",
    refusedAt: new Date(row.updated_at).toISOString(),
  }));
}

/**
 * A person settled a refused refund (paid back another way, or the provider accepted it later):
 * it leaves the list, with who, when and how. False when it was not an open case.
 */
export async function resolveRefundCase(refundId: string, adminId: string, resolution: string) {
  const [count] = await PaymentRefund.update(
    { resolvedAt: new Date(), resolvedBy: adminId, resolution },
    {
      where: {
        id: refundId,
        status: "failed",
        resolvedAt: null,
        paymentOrderId: {
          [Op.in]: sequelize.literal("(SELECT id FROM payment_orders WHERE purpose <> 'deposit')"),
        },
      },
    },
  );
  return count === 1;
}
