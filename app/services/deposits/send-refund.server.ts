// Sending a recorded refund of a capture to the payment provider: the one place that asks the
// provider for a refund, for a deposit's capture and for any other (docs/decisions/3502, 3564).
// What a refusal means is the caller's rule: a deposit's refused part goes back to the balance
// (deposits.server.ts), any other capture's becomes a case for a person (capture-refunds.server.ts).
import { PaymentOrder, PaymentRefund } from "~/models/payment.server";
import { gatewayFor, PaymentGatewayError } from "~/platform/payments/index.server";
import { log } from "~/platform/log.server";

export type RefundSent = "completed" | "pending" | "failed";

/** Provider answers that say no for good; anything else (a timeout, a 5xx) may have paid out. */
export function definiteRefusal(error: unknown): error is PaymentGatewayError {
  return (
    error instanceof PaymentGatewayError &&
    ["declined", "not_found", "auth_failed"].includes(error.code)
  );
}

/**
 * Sends `refund` of `order`'s capture (again, with the same request id `refund-<id>`, if need be,
 * so the provider pays it out once). Completed: the row says so, if it was still pending. An
 * unclear answer (timeout, 5xx): still pending, for its retry_refund job. A definite refusal:
 * `refused` records it (the caller's rule), and the refund is `failed`.
 */
export async function sendRefund(
  refund: PaymentRefund,
  order: PaymentOrder,
  refused: (error: PaymentGatewayError) => Promise<void>,
): Promise<RefundSent> {
  try {
    const result = await gatewayFor(order.provider).refundCapture({
      captureId: order.captureId!,
      amount: refund.amount,
      currency: "USD",
      idempotencyKey: `refund-${refund.id}`,
    });
    await PaymentRefund.update(
      { status: "completed", providerRefundId: result.refundId },
      { where: { id: refund.id, status: "pending" } },
    );
    return "completed";
  } catch (error) {
    log().error(
      { err: error, refund_id: String(refund.id), purpose: order.purpose },
      "refund not sent",
    );
    if (!definiteRefusal(error)) return "pending";
    await refused(error);
    return "failed";
  }
}
