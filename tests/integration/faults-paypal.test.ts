// PayPal slow, unreachable, or answering something unreadable: every call gives up within its
// timeout with a clear error, nothing is credited that PayPal did not confirm, and money PayPal
// may have moved (a capture or refund whose answer was lost) is settled exactly once later.
// Complements deposits-paypal.test.ts (capture 5xx and timeout, bad credentials, refund 5xx/422).
import { randomUUID } from "node:crypto";
import http_ from "node:http";
import type { AddressInfo } from "node:net";
import { http, HttpResponse } from "msw";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { DepositEntry } from "~/models/deposit-entry.server";
import { MembershipPurchase } from "~/models/membership.server";
import { PaymentOrder, PaymentRefund } from "~/models/payment.server";
import { User } from "~/models/user.server";
import { action as confirmAction } from "~/routes/api.confirm-deposit";
import { action as depositAction } from "~/routes/deposit/route";
import { loader as returnLoader } from "~/routes/deposit_.return";
import { loader as membershipReturn } from "~/routes/membership_.return";
import { action as orderAction } from "~/routes/paypal.order";
import { loader as setupLoader } from "~/routes/paypal.setup";
import { forgetPayPalToken, paypalTimeouts } from "~/platform/payments/paypal.server";
import { beginSubscription } from "~/services/memberships/billing.server";
import { activeMembership } from "~/services/memberships/memberships.server";
import { CONFIRM_FAILED, ledgerTotal, refundDeposit } from "~/services/deposits/deposits.server";
import { resetEnvForTests } from "~/platform/env.server";
import { PAYPAL_BASE, PAYPAL_TEST_CREDENTIALS, paypalFake } from "../mocks/paypal";
import { server } from "../mocks/server";
import { createTestUser, requestAs } from "../support/auth";
import { runRefundRetries } from "../support/jobs";
import { createTestPlan, toastOf } from "../support/memberships";
import { args } from "../support/routes";
import { untilAborted } from "../support/wait";

const START_FAILED = "Failed to start the payment. Please try again.";
/** What the tests set the timeouts to. */
const TIMEOUT_MS = 400;

/** Calls to a hanging PayPal that their caller gave up on (its timeout aborted them). */
let abandoned = 0;
/**
 * PayPal "hangs": no answer until the caller gives up on the request (our timeout aborts it).
 * Only the timeout can end such a call, so a call that ends, with `abandoned` counted, gave up.
 */
async function untilAbandoned(request: Request) {
  await untilAborted(request.signal);
  abandoned += 1;
}

beforeEach(() => {
  process.env.PAYPAL_CLIENT_ID = PAYPAL_TEST_CREDENTIALS.clientId;
  process.env.PAYPAL_CLIENT_SECRET = PAYPAL_TEST_CREDENTIALS.clientSecret;
  delete process.env.PAYPAL_API_BASE;
  resetEnvForTests();
  forgetPayPalToken();
  paypalFake.reset();
  abandoned = 0;
});

/** Timeouts short enough for a test; set once the scene is arranged. */
function shortTimeouts() {
  paypalTimeouts.tokenMs = TIMEOUT_MS;
  paypalTimeouts.requestMs = TIMEOUT_MS;
}
/** PayPal is itself again: its handlers and our usual timeouts (a busy machine is no fault). */
function payPalBack() {
  server.resetHandlers();
  paypalTimeouts.tokenMs = 8_000;
  paypalTimeouts.requestMs = 15_000;
}

afterEach(payPalBack);
afterAll(() => {
  delete process.env.PAYPAL_CLIENT_ID;
  delete process.env.PAYPAL_CLIENT_SECRET;
  resetEnvForTests();
});

async function createOrder(user: User, amount = "1000.00") {
  const response = await orderAction(
    args(
      await requestAs(user, "/paypal/order", {
        json: { amount, currency: "USD", intent: "CAPTURE" },
      }),
    ),
  );
  return response;
}

async function confirm(user: User, orderID: string) {
  return confirmAction(
    args(await requestAs(user, "/api/confirm-deposit", { json: { orderID, amount: "1.00" } })),
  );
}

async function balanceOf(user: User) {
  return (await User.findByPk(user.id, { rejectOnEmpty: true })).deposit;
}

async function expectNothingRecorded(user: User) {
  expect(await PaymentOrder.count({ where: { userId: user.id } })).toBe(0);
  expect(await DepositEntry.count({ where: { userId: user.id } })).toBe(0);
  expect(await balanceOf(user)).toBe("0.00");
}

/** Someone with a captured PayPal deposit of `amount`. */
async function depositor(amount: string) {
  const user = await createTestUser();
  const created = await createOrder(user, amount);
  const orderId = ((await created.json()) as { id: string }).id;
  paypalFake.approve(orderId);
  expect((await confirm(user, orderId)).status).toBe(200);
  return { user, orderId };
}

describe("starting a payment while PayPal is slow or away", () => {
  it("the token call hangs: 502 with a clear message within the bound, nothing recorded", async () => {
    shortTimeouts();
    server.use(
      http.post(`${PAYPAL_BASE}/v1/oauth2/token`, async ({ request }) => {
        await untilAbandoned(request);
        return HttpResponse.json({ access_token: "late", expires_in: 3600 });
      }),
    );
    const user = await createTestUser();
    const result = await createOrder(user);
    expect(abandoned).toBe(1);
    expect(result.status).toBe(502);
    expect(await result.json()).toMatchObject({ message: START_FAILED });
    await expectNothingRecorded(user);
    expect(paypalFake.calls.create).toBe(0);
  });

  it("creating the order hangs: 502 within the bound, nothing recorded", async () => {
    shortTimeouts();
    server.use(
      http.post(`${PAYPAL_BASE}/v2/checkout/orders`, async ({ request }) => {
        await untilAbandoned(request);
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    const user = await createTestUser();
    const result = await createOrder(user);
    expect(abandoned).toBe(1);
    expect(result.status).toBe(502);
    expect(await result.json()).toMatchObject({ message: START_FAILED });
    await expectNothingRecorded(user);
  });

  it("PayPal unreachable: the JSON call answers 502 and the no-JS form an error toast", async () => {
    server.use(http.post(`${PAYPAL_BASE}/v2/checkout/orders`, () => HttpResponse.error()));
    const user = await createTestUser();
    const json = await createOrder(user);
    expect(json.status).toBe(502);
    expect(await json.json()).toMatchObject({ message: START_FAILED });

    const form = (await depositAction(
      args(await requestAs(user, "/deposit", { form: { intent: "pay", amount: "2500" } })),
    )) as Response;
    expect(form.status).toBe(302);
    expect(form.headers.get("location")).toBe("/deposit?amount=2500.00");
    expect(await toastOf(form)).toMatchObject({ type: "error", description: START_FAILED });
    await expectNothingRecorded(user);
  });

  it("GET /paypal/setup with PayPal away: 502 'PayPal is unavailable'", async () => {
    server.use(http.post(`${PAYPAL_BASE}/v1/oauth2/token`, () => HttpResponse.error()));
    const user = await createTestUser();
    const response = await setupLoader(args(await requestAs(user, "/paypal/setup")));
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({
      message: "PayPal is unavailable. Please try again.",
    });
  });
});

describe("capturing while PayPal is slow", () => {
  it("the capture lands at PayPal but its answer is lost: no credit now, exactly one later", async () => {
    const user = await createTestUser();
    const orderId = ((await (await createOrder(user)).json()) as { id: string }).id;
    paypalFake.approve(orderId);
    // PayPal takes the money, then the answer never arrives in time.
    shortTimeouts();
    server.use(
      http.post(`${PAYPAL_BASE}/v2/checkout/orders/:id/capture`, async ({ request, params }) => {
        paypalFake.captureElsewhere(String(params.id));
        await untilAbandoned(request);
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    const result = await confirm(user, orderId);
    expect(abandoned).toBe(1);
    expect(result.status).toBe(502);
    expect(await result.json()).toMatchObject({ message: CONFIRM_FAILED });
    expect(await balanceOf(user)).toBe("0.00");
    expect((await PaymentOrder.findOne({ where: { providerOrderId: orderId } }))!.status).toBe(
      "created",
    );

    // PayPal answers again: the next confirmations find the order captured and credit it once.
    payPalBack();
    const [again, twice] = await Promise.all([confirm(user, orderId), confirm(user, orderId)]);
    expect([again.status, twice.status]).toEqual([200, 200]);
    expect(await balanceOf(user)).toBe("1000.00");
    expect(await DepositEntry.count({ where: { userId: user.id, kind: "deposit" } })).toBe(1);
    expect(await ledgerTotal(user.id)).toBe("1000.00");
  });

  it("without JavaScript: PayPal hanging on return gives the error toast in time, no credit", async () => {
    const user = await createTestUser();
    const orderId = ((await (await createOrder(user)).json()) as { id: string }).id;
    paypalFake.approve(orderId);
    shortTimeouts();
    server.use(
      http.post(`${PAYPAL_BASE}/v2/checkout/orders/:id/capture`, async ({ request }) => {
        await untilAbandoned(request);
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    const request = await requestAs(user, `/deposit/return?token=${orderId}`);
    const back = await returnLoader(args(request));
    expect(abandoned).toBe(1);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/deposit");
    expect(await toastOf(back)).toMatchObject({ type: "error", description: CONFIRM_FAILED });
    expect(await balanceOf(user)).toBe("0.00");
    expect(await DepositEntry.count({ where: { userId: user.id } })).toBe(0);
  });

  it("a membership whose capture answer is lost starts nothing, then starts once on return", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const started = await beginSubscription(user.id, { planId: plan.id });
    const token = new URL(started.approvalUrl).searchParams.get("token")!;
    paypalFake.approve(token);
    shortTimeouts();
    server.use(
      http.post(`${PAYPAL_BASE}/v2/checkout/orders/:id/capture`, async ({ request, params }) => {
        paypalFake.captureElsewhere(String(params.id));
        await untilAbandoned(request);
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    const back = () =>
      requestAs(user, `/membership/return?token=${token}`).then(
        (request) => membershipReturn(args(request)) as Promise<Response>,
      );
    const failed = await back();
    expect(abandoned).toBe(1);
    expect(await toastOf(failed)).toMatchObject({ type: "error" });
    expect(await activeMembership(user.id)).toBeNull();

    payPalBack();
    expect(await toastOf(await back())).toMatchObject({ type: "success" });
    expect(await toastOf(await back())).toMatchObject({ type: "success" });
    expect(await activeMembership(user.id)).not.toBeNull();
    expect(await MembershipPurchase.count({ where: { userId: user.id, status: "applied" } })).toBe(
      1,
    );
  });
});

describe("refunds while PayPal is slow or garbled", () => {
  /** PayPal pays the refund out and remembers the request id, as PayPal does. */
  function refundAtPayPal(request: Request, captureId: string, value: string) {
    const order = [...paypalFake.orders.values()].find((o) => o.capture?.id === captureId)!;
    order.refunded += Math.round(Number(value) * 100);
    paypalFake.replies.set(request.headers.get("paypal-request-id")!, {
      status: 201,
      body: { id: `REF${randomUUID().slice(0, 8).toUpperCase()}`, status: "COMPLETED" },
    });
  }

  it("a refund whose answer times out stays pending and debited; the retry settles it once", async () => {
    const { user, orderId } = await depositor("1000.00");
    shortTimeouts();
    server.use(
      http.post(`${PAYPAL_BASE}/v2/payments/captures/:id/refund`, async ({ request, params }) => {
        const body = (await request.json()) as { amount: { value: string } };
        refundAtPayPal(request, String(params.id), body.amount.value);
        await untilAbandoned(request);
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    const outcome = await refundDeposit(user.id, "400.00");
    expect(abandoned).toBe(1);
    expect(outcome).toMatchObject({ refunded: "0.00", pending: "400.00", failed: "0.00" });
    expect(await balanceOf(user)).toBe("600.00");

    payPalBack();
    expect(await runRefundRetries()).toEqual({ completed: 1, pending: 0, failed: 0 });
    expect(await runRefundRetries()).toEqual({ completed: 0, pending: 0, failed: 0 });
    expect(paypalFake.refundedTotal(orderId)).toBe(400);
    expect(await balanceOf(user)).toBe("600.00");
    expect(await ledgerTotal(user.id)).toBe("600.00");
  });

  it("PayPal sends the headers, then goes silent: the timeout covers the body; the refund waits", async () => {
    const { user, orderId } = await depositor("1000.00");
    // A real socket (msw's fake bodies ignore the abort signal): PayPal's token is fine, the
    // refund's answer starts and never finishes.
    const silent = http_.createServer((request, response) => {
      if (request.url === "/v1/oauth2/token") {
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ access_token: "SILENT", expires_in: 3600 }));
        return;
      }
      response.writeHead(201, { "Content-Type": "application/json" });
      response.write('{"id":"REF');
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      process.env.PAYPAL_API_BASE = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      resetEnvForTests();
      forgetPayPalToken();
      shortTimeouts();
      // it ends at all: the body never finishes, so only the timeout can end the call
      const outcome = await refundDeposit(user.id, "400.00");
      expect(outcome).toMatchObject({ refunded: "0.00", pending: "400.00", failed: "0.00" });
      expect(await balanceOf(user)).toBe("600.00");
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
      delete process.env.PAYPAL_API_BASE;
      resetEnvForTests();
      forgetPayPalToken();
    }
    payPalBack();
    expect(await runRefundRetries()).toEqual({ completed: 1, pending: 0, failed: 0 });
    expect(paypalFake.refundedTotal(orderId)).toBe(400);
    expect(await ledgerTotal(user.id)).toBe("600.00");
  });

  it("a 2xx refund answer that cannot be read is not a refusal: no money goes back twice", async () => {
    const { user, orderId } = await depositor("1000.00");
    server.use(
      http.post(`${PAYPAL_BASE}/v2/payments/captures/:id/refund`, async ({ request, params }) => {
        const body = (await request.json()) as { amount: { value: string } };
        refundAtPayPal(request, String(params.id), body.amount.value);
        // a proxy's page, or a body cut short: PayPal did the refund, we cannot read that it did
        return new HttpResponse("<html>upstream reset</html>", {
          status: 201,
          headers: { "Content-Type": "text/html" },
        });
      }),
    );
    const outcome = await refundDeposit(user.id, "400.00");
    // PayPal paid 400 out: the balance must not get it back as if the refund had been refused.
    expect(paypalFake.refundedTotal(orderId)).toBe(400);
    expect(outcome).toMatchObject({ refunded: "0.00", pending: "400.00", failed: "0.00" });
    expect(await balanceOf(user)).toBe("600.00");
    expect(await DepositEntry.count({ where: { userId: user.id, kind: "adjustment" } })).toBe(0);

    payPalBack();
    expect(await runRefundRetries()).toEqual({ completed: 1, pending: 0, failed: 0 });
    expect(paypalFake.refundedTotal(orderId)).toBe(400);
    const refunds = await PaymentRefund.findAll({ where: { userId: user.id } });
    expect(refunds.map((r) => r.status)).toEqual(["completed"]);
    expect(await balanceOf(user)).toBe("600.00");
    expect(await ledgerTotal(user.id)).toBe("600.00");
  });
});
