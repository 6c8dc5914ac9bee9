// Refunds know whose money they are (docs/decisions/3502): a refund of a capture that never
// belonged to the deposit (here a membership's, captured for another amount than the period
// costs) is sent again while PayPal's answer is unclear and, when PayPal refuses it for good, is
// never credited to the deposit: it waits in the admin list of refunds that need a person, with
// the payer, the amount, PayPal's reference and reason, and the metric counts it. A deposit's own
// refused refund still goes back to the balance (deposits-paypal.test.ts).
import { http, HttpResponse } from "msw";
import pg from "pg";
import { register } from "prom-client";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { DepositEntry } from "~/models/deposit-entry.server";
import { PaymentOrder, PaymentRefund } from "~/models/payment.server";
import { User } from "~/models/user.server";
import { loader as returnLoader } from "~/routes/membership_.return";
import { loader as refundsLoader, action as refundsAction } from "~/routes/admin_.refunds";
import { forgetPayPalToken } from "~/platform/payments/paypal.server";
import { resetEnvForTests } from "~/platform/env.server";
import { registerStateMetrics } from "~/platform/metrics.server";
import { refundsNeedingAPerson } from "~/services/deposits/capture-refunds.server";
import { beginSubscription } from "~/services/memberships/billing.server";
import {
  completeTransportPayment,
  confirmTransportPayment,
} from "~/services/affiliates/transport-payments.server";
import { availableBuyingPower } from "~/services/auctions/buying-power.server";
import { fromCents, toCents } from "~/utils/money";
import { payableChecks } from "../../soak/invariants";
import { PAYPAL_BASE, PAYPAL_TEST_CREDENTIALS, paypalFake } from "../mocks/paypal";
import { server } from "../mocks/server";
import { createTestUser, requestAs } from "../support/auth";
import { queuedJobs, runRefundRetries } from "../support/jobs";
import { createTestPlan } from "../support/memberships";
import { arrangeShippingOrder } from "../support/purchases";

const context = {};

beforeEach(() => {
  process.env.PAYPAL_CLIENT_ID = PAYPAL_TEST_CREDENTIALS.clientId;
  process.env.PAYPAL_CLIENT_SECRET = PAYPAL_TEST_CREDENTIALS.clientSecret;
  delete process.env.PAYPAL_API_BASE;
  resetEnvForTests();
  forgetPayPalToken();
  paypalFake.reset();
});
afterEach(() => server.resetHandlers());
afterAll(() => {
  delete process.env.PAYPAL_CLIENT_ID;
  delete process.env.PAYPAL_CLIENT_SECRET;
  resetEnvForTests();
});

const refundAnswers = (status: number, body: Record<string, unknown>) =>
  server.use(
    http.post(`${PAYPAL_BASE}/v2/payments/captures/:id/refund`, () =>
      HttpResponse.json(body, { status }),
    ),
  );

/** A member whose $19.99 period PayPal captured as $29.99 while refunds answer 500: pending. */
async function unwantedCapture() {
  const user = await createTestUser({ deposit: "0.00" });
  const plan = await createTestPlan({ name: "Basic", price: "19.99" });
  const started = await beginSubscription(user.id, { planId: plan.id });
  const token = new URL(started.approvalUrl).searchParams.get("token")!;
  paypalFake.approve(token);
  paypalFake.captureAmountOverride = "29.99";
  refundAnswers(500, { name: "INTERNAL_SERVER_ERROR" });
  await returnLoader({
    request: await requestAs(user, `/membership/return?token=${token}`),
    params: {},
    context,
  });
  const order = await PaymentOrder.findOne({ where: { providerOrderId: token } });
  const refunds = await PaymentRefund.findAll({ where: { paymentOrderId: order!.id } });
  expect(refunds.map((r) => r.status)).toEqual(["pending"]);
  return { user, order: order!, refund: refunds[0] };
}

async function invariantsFailing() {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  try {
    return (await payableChecks(pool)).filter((check) => !check.ok).map((check) => check.name);
  } finally {
    await pool.end();
  }
}

describe("a refused refund of a membership's capture", () => {
  it("is never credited to the deposit: the retry leaves it failed, the balance and ledger untouched", async () => {
    const { user, refund } = await unwantedCapture();
    refundAnswers(422, {
      name: "UNPROCESSABLE_ENTITY",
      details: [{ issue: "TRANSACTION_REFUSED" }],
    });
    await runRefundRetries();
    expect((await PaymentRefund.findByPk(refund.id))!.status).toBe("failed");
    expect((await User.findByPk(user.id))!.deposit).toBe("0.00");
    expect(await DepositEntry.count({ where: { userId: user.id } })).toBe(0);
    // a later run of the retry jobs changes nothing
    server.resetHandlers();
    await runRefundRetries();
    expect((await User.findByPk(user.id))!.deposit).toBe("0.00");
    expect(await invariantsFailing()).toEqual([]);
  });

  it("lands in the admin list (payer, amount, PayPal reference, reason) and the metric counts it", async () => {
    const before = await refundsNeedingAPerson();
    const { user, order, refund } = await unwantedCapture();
    refundAnswers(422, {
      name: "UNPROCESSABLE_ENTITY",
      details: [{ issue: "TRANSACTION_REFUSED" }],
    });
    expect(await runRefundRetries()).toMatchObject({ failed: 1 });
    const cases = await refundsNeedingAPerson();
    expect(cases).toHaveLength(before.length + 1);
    const mine = cases.find((c) => c.id === refund.id)!;
    expect(mine).toMatchObject({
      payerId: user.id,
      payerEmail: user.email,
      amount: "29.99",
      purpose: "membership",
      captureId: order.captureId,
    });
    expect(mine.reason).toContain("TRANSACTION_REFUSED");
    registerStateMetrics(() => 0);
    const metric = await register.getSingleMetric("bidyard_refunds_needing_a_person")!.get();
    expect(metric.values[0].value).toBe(cases.length);

    const admin = await createTestUser({ role: "admin" });
    const page = (await refundsLoader({
      request: await requestAs(admin, "/admin/refunds"),
      params: {},
      context,
    })) as unknown as { cases: typeof cases };
    expect(page.cases.map((c) => c.id)).toContain(refund.id);
    // not for anyone else
    const stranger = await refundsLoader({
      request: await requestAs(user, "/admin/refunds"),
      params: {},
      context,
    }).catch((e: unknown) => e);
    expect((stranger as Response).status).toBe(403);

    // a person settles it: it leaves the list, and the invariant still holds (a settled case)
    const settled = (await refundsAction({
      request: await requestAs(admin, "/admin/refunds", {
        form: { refundId: refund.id, resolution: "Paid back by bank transfer, ticket 1234" },
      }),
      params: {},
      context,
    })) as Response;
    expect(settled.status).toBe(302);
    expect((await refundsNeedingAPerson()).map((c) => c.id)).not.toContain(refund.id);
    expect(await PaymentRefund.findByPk(refund.id)).toMatchObject({
      resolvedBy: admin.id,
      resolution: "Paid back by bank transfer, ticket 1234",
    });
    expect(await invariantsFailing()).toEqual([]);
  });
});

describe("a membership capture's refund with no clear answer after its job's last try", () => {
  it("becomes a case for a person, never a deposit credit", async () => {
    const { user, order, refund } = await unwantedCapture();
    const key = `retry_refund:${refund.id}`;
    // PayPal keeps answering 500: the queue retries the job; this is its last try
    await sequelize.query(
      "UPDATE graphile_worker._private_jobs SET attempts = max_attempts - 1 WHERE key = :key",
      { replacements: { key } },
    );
    expect(await runRefundRetries()).toMatchObject({ failed: 1 });
    const mine = (await refundsNeedingAPerson()).find((c) => c.id === refund.id)!;
    expect(mine).toMatchObject({ payerId: user.id, amount: "29.99", captureId: order.captureId });
    expect(mine.reason).toMatch(/^No clear answer from the provider after 8 tries/);
    expect((await User.findByPk(user.id))!.deposit).toBe("0.00");
    expect(await DepositEntry.count({ where: { userId: user.id } })).toBe(0);
    // its job is done (the case is the person's now)
    expect((await queuedJobs("retry_refund")).filter((j) => j.key === key)).toEqual([]);
    expect(await invariantsFailing()).toEqual([]);
  });
});

describe("a refused refund of a transport order's capture (the issue's $1,619 for $1,519 owed)", () => {
  it("stays out of the deposit and of buying power, and waits for a person", async () => {
    const { buyer, order, id } = await arrangeShippingOrder("5000.00");
    const before = await availableBuyingPower(buyer.id);
    const started = (await confirmTransportPayment(buyer.id, id, order.payout, "gateway")) as {
      approvalUrl: string;
    };
    const token = new URL(started.approvalUrl).searchParams.get("token")!;
    paypalFake.approve(token);
    const wrong = fromCents(toCents(order.payout) + 10_000);
    paypalFake.captureAmountOverride = wrong;
    refundAnswers(503, { name: "SERVICE_UNAVAILABLE" });
    await expect(completeTransportPayment(buyer.id, token)).rejects.toMatchObject({
      status: 409,
    });
    refundAnswers(422, {
      name: "UNPROCESSABLE_ENTITY",
      details: [{ issue: "REFUND_NOT_ALLOWED" }],
    });
    expect(await runRefundRetries()).toMatchObject({ failed: 1 });
    expect((await User.findByPk(buyer.id))!.deposit).toBe("5000.00");
    // the opening balance is the only entry
    expect(await DepositEntry.count({ where: { userId: buyer.id } })).toBe(1);
    expect(await availableBuyingPower(buyer.id)).toBe(before);
    const mine = (await refundsNeedingAPerson()).filter((c) => c.payerId === buyer.id);
    expect(mine).toMatchObject([{ amount: wrong, purpose: "service_order" }]);
    expect(mine[0].reason).toContain("REFUND_NOT_ALLOWED");
    expect(await invariantsFailing()).toEqual([]);
  });
});
