import { env } from "~/platform/env.server";
import type { PaymentGateway } from "./gateway.server";
import { createPayPalGateway } from "./paypal.server";
import { createTestGateway } from "./test-gateway.server";

export * from "./gateway.server";

/**
 * The gateway for this environment: PayPal when PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are
 * set, else the built-in TEST MODE gateway (production refuses to start without PayPal unless
 * ALLOW_TEST_PAYMENTS=true).
 */
export function paymentGateway(): PaymentGateway {
  const e = env();
  if (e.paypalConfigured) {
    return createPayPalGateway({
      clientId: e.PAYPAL_CLIENT_ID!,
      clientSecret: e.PAYPAL_CLIENT_SECRET!,
      apiBase: e.PAYPAL_API_BASE,
    });
  }
  return createTestGateway();
}

/** The gateway that settles an order created earlier, whatever the environment says today. */
export function gatewayFor(provider: "paypal" | "test"): PaymentGateway {
  if (provider === "test") {
    // Never settle a test order where real money is expected.
    if (!testPaymentsAllowed()) throw new Error("Test payments are not allowed here");
    return createTestGateway();
  }
  const gateway = paymentGateway();
  if (gateway.name !== "paypal") throw new Error("PayPal is no longer configured");
  return gateway;
}

/** The test gateway's pages exist outside production, or when staging allows them. */
export function testPaymentsAllowed() {
  const e = env();
  return !e.isProduction || e.ALLOW_TEST_PAYMENTS;
}
