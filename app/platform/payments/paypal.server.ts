// PayPal Orders v2 over plain fetch: a cached OAuth token, PayPal-Request-Id on every write,
// bounded timeouts, and only the captured amount PayPal reports is ever believed.
import {
  PaymentGatewayError,
  type CaptureResult,
  type CreateOrderInput,
  type CreatedOrder,
  type PaymentGateway,
  type RefundInput,
  type RefundResult,
} from "./gateway.server";

export type PayPalConfig = { clientId: string; clientSecret: string; apiBase: string };

/** Timeouts for one HTTP call to PayPal; tests lower them. */
export const paypalTimeouts = { tokenMs: 8_000, requestMs: 15_000 };

type CachedToken = { key: string; token: string; expiresAt: number };
let cachedToken: CachedToken | undefined;
/** The token request in flight: every call that finds no token waits for this one
 * (docs/decisions/2904), instead of each asking PayPal for its own. */
let tokenInFlight: { key: string; token: Promise<string> } | undefined;

export function forgetPayPalToken() {
  cachedToken = undefined;
  tokenInFlight = undefined;
}

type PayPalLink = { rel?: string; href?: string };
type PayPalAmount = { currency_code?: string; value?: string };
type PayPalCapture = { id?: string; status?: string; amount?: PayPalAmount };
type PayPalOrder = {
  id?: string;
  status?: string;
  links?: PayPalLink[];
  purchase_units?: Array<{ payments?: { captures?: PayPalCapture[] } }>;
};
type PayPalErrorBody = { name?: string; details?: Array<{ issue?: string }>; error?: string };

const timedOut = (error: unknown) => {
  const name = (error as Error)?.name;
  return name === "TimeoutError" || name === "AbortError";
};

/** One HTTP call; the timeout covers the headers and the body (read by `readJson`). */
async function callPayPal(url: string, init: RequestInit, timeoutMs: number) {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new PaymentGatewayError(
      "unavailable",
      timedOut(error) ? "PayPal did not answer in time" : "PayPal could not be reached",
    );
  }
}

/**
 * The answer's JSON, or undefined when it is not JSON. A body cut off (timeout, reset) is an
 * unclear answer, never a refusal: PayPal may have done what was asked.
 */
async function readJson<T>(response: Response): Promise<T | undefined> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new PaymentGatewayError(
      "unavailable",
      timedOut(error) ? "PayPal did not finish answering in time" : "PayPal's answer was cut off",
    );
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

function issueOf(body: PayPalErrorBody | undefined) {
  return body?.details?.[0]?.issue ?? body?.name ?? body?.error;
}

function errorFor(response: Response, body: PayPalErrorBody | undefined, action: string) {
  // A success we cannot read is not a refusal: PayPal may have done it (retry with the same id).
  if (response.ok)
    return new PaymentGatewayError(
      "invalid_response",
      `PayPal's answer to ${action} could not be read (${response.status})`,
    );
  const issue = issueOf(body);
  if (response.status >= 500 || response.status === 429)
    return new PaymentGatewayError(
      "unavailable",
      `PayPal failed to ${action} (${response.status})`,
    );
  if (response.status === 401 || response.status === 403)
    return new PaymentGatewayError("auth_failed", `PayPal refused our credentials (${action})`);
  if (response.status === 404)
    return new PaymentGatewayError("not_found", `PayPal does not know this ${action}`, issue);
  return new PaymentGatewayError(
    "declined",
    `PayPal declined to ${action}${issue ? `: ${issue}` : ""}`,
    issue,
  );
}

/** The browser is only ever sent to PayPal's own pages (no open redirect through a bad answer). */
function isPayPalPage(href: string) {
  try {
    const url = new URL(href);
    return url.protocol === "https:" && /(^|\.)paypal\.com$/.test(url.hostname);
  } catch {
    return false;
  }
}

function captureFrom(order: PayPalOrder, alreadyCaptured: boolean): CaptureResult {
  const capture = order.purchase_units?.[0]?.payments?.captures?.[0];
  const value = capture?.amount?.value;
  if (!order.id || !capture?.id || !value || !/^\d+(\.\d{1,2})?$/.test(value)) {
    throw new PaymentGatewayError("invalid_response", "PayPal's capture answer had no amount");
  }
  return {
    providerOrderId: order.id,
    captureId: capture.id,
    amount: value,
    currency: capture.amount?.currency_code ?? "",
    status: capture.status ?? "UNKNOWN",
    alreadyCaptured,
  };
}

export function createPayPalGateway(config: PayPalConfig): PaymentGateway {
  const base = config.apiBase.replace(/\/+$/, "");
  const tokenKey = `${base}|${config.clientId}|${config.clientSecret}`;

  function accessToken(): Promise<string> {
    if (cachedToken && cachedToken.key === tokenKey && cachedToken.expiresAt > Date.now()) {
      return Promise.resolve(cachedToken.token);
    }
    if (tokenInFlight?.key === tokenKey) return tokenInFlight.token;
    const token = requestToken();
    const flight = { key: tokenKey, token };
    tokenInFlight = flight;
    const done = () => {
      if (tokenInFlight === flight) tokenInFlight = undefined;
    };
    token.then(done, done);
    return token;
  }

  async function requestToken(): Promise<string> {
    const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString("base64");
    const response = await callPayPal(
      `${base}/v1/oauth2/token`,
      {
        method: "POST",
        headers: {
          Authorization: `Basic ${basic}`,
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "application/json",
        },
        body: "grant_type=client_credentials",
      },
      paypalTimeouts.tokenMs,
    );
    const body = await readJson<{ access_token?: string; expires_in?: number }>(response);
    if (!response.ok) throw errorFor(response, body as PayPalErrorBody, "issue a token");
    if (!body?.access_token)
      throw new PaymentGatewayError("invalid_response", "PayPal sent no access token");
    // Renew a minute early so a token never expires mid-request.
    const lifetimeMs = Math.max(0, (body.expires_in ?? 300) - 60) * 1000;
    cachedToken = { key: tokenKey, token: body.access_token, expiresAt: Date.now() + lifetimeMs };
    return body.access_token;
  }

  async function api<T>(
    method: "GET" | "POST",
    path: string,
    options: { body?: unknown; requestId?: string; action: string },
  ): Promise<{ response: Response; body: T | undefined }> {
    for (let attempt = 0; ; attempt += 1) {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${await accessToken()}`,
        Accept: "application/json",
        Prefer: "return=representation",
      };
      if (options.body !== undefined) headers["Content-Type"] = "application/json";
      if (options.requestId) headers["PayPal-Request-Id"] = options.requestId;
      const response = await callPayPal(
        `${base}${path}`,
        {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        },
        paypalTimeouts.requestMs,
      );
      // An expired or revoked token: get a fresh one once, then give up.
      if (response.status === 401 && attempt === 0) {
        forgetPayPalToken();
        continue;
      }
      return { response, body: await readJson<T>(response) };
    }
  }

  async function getOrder(providerOrderId: string): Promise<PayPalOrder> {
    const { response, body } = await api<PayPalOrder>(
      "GET",
      `/v2/checkout/orders/${encodeURIComponent(providerOrderId)}`,
      { action: "read the order" },
    );
    if (!response.ok || !body) throw errorFor(response, body as PayPalErrorBody, "read the order");
    return body;
  }

  return {
    name: "paypal",
    testMode: false,

    async createOrder(input: CreateOrderInput): Promise<CreatedOrder> {
      const { response, body } = await api<PayPalOrder>("POST", "/v2/checkout/orders", {
        action: "create the order",
        requestId: input.idempotencyKey,
        body: {
          intent: "CAPTURE",
          purchase_units: [
            {
              custom_id: input.reference,
              description: input.description.slice(0, 127),
              amount: { currency_code: input.currency, value: input.amount },
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                brand_name: "BidYard",
                shipping_preference: "NO_SHIPPING",
                user_action: "PAY_NOW",
                return_url: input.returnUrl,
                cancel_url: input.cancelUrl,
              },
            },
          },
        },
      });
      if (!response.ok || !body)
        throw errorFor(response, body as PayPalErrorBody, "create the order");
      const link = body.links?.find((l) => l.rel === "payer-action" || l.rel === "approve");
      if (!body.id || !link?.href || !isPayPalPage(link.href))
        throw new PaymentGatewayError("invalid_response", "PayPal sent no approval link");
      return { providerOrderId: body.id, approvalUrl: link.href };
    },

    async captureOrder(providerOrderId, { idempotencyKey }): Promise<CaptureResult> {
      const { response, body } = await api<PayPalOrder & PayPalErrorBody>(
        "POST",
        `/v2/checkout/orders/${encodeURIComponent(providerOrderId)}/capture`,
        { action: "capture the order", requestId: idempotencyKey, body: {} },
      );
      if (response.ok && body) return captureFrom(body, false);
      if (response.status === 422 && issueOf(body) === "ORDER_ALREADY_CAPTURED") {
        // Captured before (another tab, a retry): read what PayPal holds and settle from that.
        return captureFrom(await getOrder(providerOrderId), true);
      }
      throw errorFor(response, body, "capture the order");
    },

    async capturedBefore(providerOrderId) {
      const order = await getOrder(providerOrderId);
      if (order.status !== "COMPLETED") return null;
      return captureFrom(order, true);
    },

    async refundCapture(input: RefundInput): Promise<RefundResult> {
      const { response, body } = await api<{ id?: string; status?: string } & PayPalErrorBody>(
        "POST",
        `/v2/payments/captures/${encodeURIComponent(input.captureId)}/refund`,
        {
          action: "refund the capture",
          requestId: input.idempotencyKey,
          body: { amount: { currency_code: input.currency, value: input.amount } },
        },
      );
      if (!response.ok || !body?.id) throw errorFor(response, body, "refund the capture");
      return { refundId: body.id, amount: input.amount, status: body.status ?? "UNKNOWN" };
    },

    async voidOrder() {
      // Orders v2 has no call that closes an uncaptured CAPTURE-intent order (it lapses on its
      // own); our payment_orders row is closed instead, so it is never captured.
    },

    async clientToken(): Promise<string> {
      const { response, body } = await api<{ client_token?: string }>(
        "POST",
        "/v1/identity/generate-token",
        { action: "issue a client token", body: {} },
      );
      if (!response.ok || !body?.client_token)
        throw errorFor(response, body as PayPalErrorBody, "issue a client token");
      return body.client_token;
    },
  };
}
