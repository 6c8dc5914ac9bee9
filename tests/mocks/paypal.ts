// msw plays PayPal (OAuth, Orders v2, captures, refunds) so tests run the real client code.
// State is kept in memory per test process; `paypalFake` lets a test steer it.
import { randomBytes } from "node:crypto";
import { http, HttpResponse } from "msw";

export const PAYPAL_BASE = "https://api-m.sandbox.paypal.com";
export const PAYPAL_TEST_CREDENTIALS = { clientId: "test-client-id", clientSecret: "test-secret" };

type FakeOrder = {
  id: string;
  amount: string;
  currency: string;
  customId?: string;
  returnUrl?: string;
  cancelUrl?: string;
  status: "PAYER_ACTION_REQUIRED" | "APPROVED" | "COMPLETED";
  capture?: { id: string; amount: string; status: string };
  refunded: number;
};

const id = (prefix = "") => prefix + randomBytes(8).toString("hex").toUpperCase();

export const paypalFake = {
  orders: new Map<string, FakeOrder>(),
  tokens: new Set<string>(),
  /** Replies already given per PayPal-Request-Id, as PayPal does for idempotent retries. */
  replies: new Map<string, { status: number; body: unknown }>(),
  calls: { token: 0, create: 0, capture: 0, refund: 0, getOrder: 0 },
  /** Off: a repeated PayPal-Request-Id is treated as a new request (an expired key, another client). */
  replayRequests: true,
  /** When set, the next captures report this amount instead of the order's. */
  captureAmountOverride: undefined as string | undefined,
  reset() {
    this.orders.clear();
    this.tokens.clear();
    this.replies.clear();
    this.calls = { token: 0, create: 0, capture: 0, refund: 0, getOrder: 0 };
    this.captureAmountOverride = undefined;
    this.replayRequests = true;
  },
  /** Someone else (the browser SDK, another server) captured the order already. */
  captureElsewhere(orderId: string) {
    const order = this.orders.get(orderId)!;
    order.status = "COMPLETED";
    order.capture = {
      id: id("CAP"),
      amount: this.captureAmountOverride ?? order.amount,
      status: "COMPLETED",
    };
  },
  /** The buyer approves the order on PayPal's page. */
  approve(orderId: string) {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no fake order ${orderId}`);
    if (order.status === "PAYER_ACTION_REQUIRED") order.status = "APPROVED";
  },
  refundedTotal(orderId: string) {
    return (this.orders.get(orderId)?.refunded ?? 0) / 100;
  },
};

function authorized(request: Request) {
  const auth = request.headers.get("authorization") ?? "";
  return auth.startsWith("Bearer ") && paypalFake.tokens.has(auth.slice(7));
}

function unauthorized() {
  return HttpResponse.json(
    { error: "invalid_token", error_description: "Token signature verification failed" },
    { status: 401 },
  );
}

function orderBody(order: FakeOrder) {
  return {
    id: order.id,
    status: order.status,
    purchase_units: [
      {
        custom_id: order.customId,
        amount: { currency_code: order.currency, value: order.amount },
        payments: order.capture
          ? {
              captures: [
                {
                  id: order.capture.id,
                  status: order.capture.status,
                  amount: { currency_code: order.currency, value: order.capture.amount },
                },
              ],
            }
          : undefined,
      },
    ],
    links: [
      { rel: "self", href: `${PAYPAL_BASE}/v2/checkout/orders/${order.id}`, method: "GET" },
      {
        rel: "payer-action",
        href: `https://www.sandbox.paypal.com/checkoutnow?token=${order.id}`,
        method: "GET",
      },
    ],
  };
}

/** Replays the stored reply for a repeated PayPal-Request-Id, else computes and stores one. */
function idempotent(request: Request, compute: () => { status: number; body: unknown }) {
  const key = paypalFake.replayRequests ? request.headers.get("paypal-request-id") : null;
  const previous = key ? paypalFake.replies.get(key) : undefined;
  const reply = previous ?? compute();
  if (key && !previous && reply.status < 300) paypalFake.replies.set(key, reply);
  return HttpResponse.json(reply.body as Record<string, unknown>, { status: reply.status });
}

export const paypalHandlers = [
  http.post(`${PAYPAL_BASE}/v1/oauth2/token`, async ({ request }) => {
    paypalFake.calls.token += 1;
    const expected = Buffer.from(
      `${PAYPAL_TEST_CREDENTIALS.clientId}:${PAYPAL_TEST_CREDENTIALS.clientSecret}`,
    ).toString("base64");
    const body = await request.text();
    if (request.headers.get("authorization") !== `Basic ${expected}`) {
      return HttpResponse.json(
        { error: "invalid_client", error_description: "Client Authentication failed" },
        { status: 401 },
      );
    }
    if (body !== "grant_type=client_credentials") {
      return HttpResponse.json({ error: "unsupported_grant_type" }, { status: 400 });
    }
    const token = id("A21AA");
    paypalFake.tokens.add(token);
    return HttpResponse.json({ access_token: token, token_type: "Bearer", expires_in: 32400 });
  }),

  http.post(`${PAYPAL_BASE}/v1/identity/generate-token`, ({ request }) => {
    if (!authorized(request)) return unauthorized();
    return HttpResponse.json({ client_token: id("CT-"), expires_in: 3600 });
  }),

  http.post(`${PAYPAL_BASE}/v2/checkout/orders`, async ({ request }) => {
    if (!authorized(request)) return unauthorized();
    paypalFake.calls.create += 1;
    const body = (await request.json()) as {
      intent?: string;
      purchase_units?: Array<{
        custom_id?: string;
        amount?: { currency_code?: string; value?: string };
      }>;
      payment_source?: {
        paypal?: { experience_context?: { return_url?: string; cancel_url?: string } };
      };
    };
    return idempotent(request, () => {
      const unit = body.purchase_units?.[0];
      if (body.intent !== "CAPTURE" || !unit?.amount?.value) {
        return {
          status: 400,
          body: { name: "INVALID_REQUEST", details: [{ issue: "MISSING_REQUIRED_PARAMETER" }] },
        };
      }
      const context = body.payment_source?.paypal?.experience_context;
      const order: FakeOrder = {
        id: id(),
        amount: unit.amount.value,
        currency: unit.amount.currency_code ?? "USD",
        customId: unit.custom_id,
        returnUrl: context?.return_url,
        cancelUrl: context?.cancel_url,
        status: "PAYER_ACTION_REQUIRED",
        refunded: 0,
      };
      paypalFake.orders.set(order.id, order);
      return { status: 200, body: orderBody(order) };
    });
  }),

  http.get(`${PAYPAL_BASE}/v2/checkout/orders/:id`, ({ request, params }) => {
    if (!authorized(request)) return unauthorized();
    paypalFake.calls.getOrder += 1;
    const order = paypalFake.orders.get(String(params.id));
    if (!order) return HttpResponse.json({ name: "RESOURCE_NOT_FOUND" }, { status: 404 });
    return HttpResponse.json(orderBody(order));
  }),

  http.post(`${PAYPAL_BASE}/v2/checkout/orders/:id/capture`, ({ request, params }) => {
    if (!authorized(request)) return unauthorized();
    paypalFake.calls.capture += 1;
    return idempotent(request, () => {
      const order = paypalFake.orders.get(String(params.id));
      if (!order) return { status: 404, body: { name: "RESOURCE_NOT_FOUND" } };
      if (order.status === "COMPLETED")
        return {
          status: 422,
          body: { name: "UNPROCESSABLE_ENTITY", details: [{ issue: "ORDER_ALREADY_CAPTURED" }] },
        };
      if (order.status !== "APPROVED")
        return {
          status: 422,
          body: { name: "UNPROCESSABLE_ENTITY", details: [{ issue: "ORDER_NOT_APPROVED" }] },
        };
      order.status = "COMPLETED";
      order.capture = {
        id: id("CAP"),
        amount: paypalFake.captureAmountOverride ?? order.amount,
        status: "COMPLETED",
      };
      return { status: 201, body: orderBody(order) };
    });
  }),

  http.post(`${PAYPAL_BASE}/v2/payments/captures/:id/refund`, async ({ request, params }) => {
    if (!authorized(request)) return unauthorized();
    paypalFake.calls.refund += 1;
    const body = (await request.json()) as { amount?: { value?: string } };
    return idempotent(request, () => {
      const order = [...paypalFake.orders.values()].find((o) => o.capture?.id === params.id);
      if (!order?.capture) return { status: 404, body: { name: "RESOURCE_NOT_FOUND" } };
      const cents = Math.round(Number(body.amount?.value ?? order.capture.amount) * 100);
      const capturedCents = Math.round(Number(order.capture.amount) * 100);
      if (order.refunded + cents > capturedCents)
        return {
          status: 422,
          body: { name: "UNPROCESSABLE_ENTITY", details: [{ issue: "REFUND_AMOUNT_EXCEEDED" }] },
        };
      order.refunded += cents;
      return { status: 201, body: { id: id("REF"), status: "COMPLETED" } };
    });
  }),
];
