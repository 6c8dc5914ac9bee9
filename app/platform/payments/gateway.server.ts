// The one contract every payment provider implements. Deposits and memberships pay through it.

export type GatewayName = "paypal" | "test";

export type CreateOrderInput = {
  /** Two-place decimal string, e.g. "1000.00". */
  amount: string;
  currency: "USD";
  /** Shown to the payer; at most 127 characters. */
  description: string;
  /** Our reference (the payment_orders id), echoed back by the provider as custom_id. */
  reference: string;
  /** Where the provider sends the payer after approval, with ?token=<providerOrderId>. */
  returnUrl: string;
  /** Where the provider sends the payer who cancels, with ?token=<providerOrderId>. */
  cancelUrl: string;
  /** Same key, same order: safe to retry (PayPal-Request-Id). */
  idempotencyKey: string;
};

export type CreatedOrder = {
  providerOrderId: string;
  /** The payer-action link: redirect the browser here to approve the payment. */
  approvalUrl: string;
};

export type CaptureResult = {
  providerOrderId: string;
  captureId: string;
  /** What the provider says it captured: the only amount to credit. */
  amount: string;
  currency: string;
  /** COMPLETED means the money is ours; PENDING and the rest mean not (yet). */
  status: string;
  /** True when the order had been captured before this call (a repeat or a race). */
  alreadyCaptured: boolean;
};

export type RefundInput = {
  captureId: string;
  amount: string;
  currency: "USD";
  idempotencyKey: string;
};

export type RefundResult = { refundId: string; amount: string; status: string };

export interface PaymentGateway {
  readonly name: GatewayName;
  /** True for the built-in test gateway: the page must say TEST MODE and no money moves. */
  readonly testMode: boolean;
  createOrder(input: CreateOrderInput): Promise<CreatedOrder>;
  captureOrder(
    providerOrderId: string,
    options: { idempotencyKey: string },
  ): Promise<CaptureResult>;
  refundCapture(input: RefundInput): Promise<RefundResult>;
  /**
   * The order's capture if it was captured already (an earlier capture whose answer was lost,
   * the browser SDK), else null: asked before a checkout that may not be captured is closed, so
   * money taken anyway is found and refunded (docs/decisions/3501).
   */
  capturedBefore(providerOrderId: string): Promise<CaptureResult | null>;
  /**
   * Closes an order nobody should approve any more (what it was for is paid another way): the
   * provider's checkout then refuses it. A provider that cannot close an uncaptured order does
   * nothing; our own order row is closed all the same, so it is never captured.
   */
  voidOrder(providerOrderId: string): Promise<void>;
  /** A client token for the provider's browser SDK (GET /paypal/setup). */
  clientToken(): Promise<string>;
}

export type PaymentErrorCode =
  | "unavailable" // 5xx, network, timeout: try again later
  | "auth_failed" // our credentials were refused
  | "declined" // the provider refused this operation (not approved, over-refund, ...)
  | "not_found"
  | "invalid_response";

/** Anything that went wrong talking to a provider. Never carries secrets. */
export class PaymentGatewayError extends Error {
  constructor(
    readonly code: PaymentErrorCode,
    message: string,
    readonly providerIssue?: string,
  ) {
    super(message);
    this.name = "PaymentGatewayError";
  }
}
