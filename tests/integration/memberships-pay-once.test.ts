// One payment per membership period (docs/decisions/3201, 3501): two or three checkouts of a
// membership (tabs, the JSON call and the form, the same plan or different plans), approved at
// PayPal and returned to one after another or at once, keep exactly one payment: the first to
// settle pays the period, the others are closed without a capture; a capture that cannot pay the
// period is refunded at PayPal with its payment_refunds row and an e-mail that says so. Receipts
// only for what is kept. msw plays PayPal; the real client code runs.
import { http, HttpResponse } from "msw";
import { QueryTypes } from "sequelize";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import pg from "pg";
import { sequelize } from "~/models/db.server";
import { Membership, MembershipPurchase } from "~/models/membership.server";
import { PaymentOrder, PaymentRefund } from "~/models/payment.server";
import { action as subscribeApi } from "~/routes/api.membership.subscribe";
import { action as membershipAction } from "~/routes/membership";
import { loader as returnLoader } from "~/routes/membership_.return";
import { forgetPayPalToken, paypalTimeouts } from "~/platform/payments/paypal.server";
import { resetEnvForTests } from "~/platform/env.server";
import { beginRenewal, beginSubscription } from "~/services/memberships/billing.server";
import { activeMembership, MembershipError } from "~/services/memberships/memberships.server";
import { formatDay } from "~/utils/time";
import { payableChecks } from "../../soak/invariants";
import { PAYPAL_BASE, PAYPAL_TEST_CREDENTIALS, paypalFake } from "../mocks/paypal";
import { server } from "../mocks/server";
import { createTestUser, requestAs } from "../support/auth";
import { createTestPlan, toastOf } from "../support/memberships";
import { untilAborted } from "../support/wait";

type TestUser = Awaited<ReturnType<typeof createTestUser>>;
const context = {};
const tokenOf = (approvalUrl: string) => new URL(approvalUrl).searchParams.get("token")!;

beforeEach(() => {
  process.env.PAYPAL_CLIENT_ID = PAYPAL_TEST_CREDENTIALS.clientId;
  process.env.PAYPAL_CLIENT_SECRET = PAYPAL_TEST_CREDENTIALS.clientSecret;
  delete process.env.PAYPAL_API_BASE;
  resetEnvForTests();
  forgetPayPalToken();
  paypalFake.reset();
});
afterEach(() => {
  server.resetHandlers();
  paypalTimeouts.tokenMs = 8_000;
  paypalTimeouts.requestMs = 15_000;
});
afterAll(() => {
  delete process.env.PAYPAL_CLIENT_ID;
  delete process.env.PAYPAL_CLIENT_SECRET;
  resetEnvForTests();
});

/** A tab's Subscribe: the JSON call or the form; answers PayPal's order id, approved there. */
async function checkout(user: TestUser, planId: string, way: "json" | "form") {
  let approvalUrl: string;
  if (way === "json") {
    const response = (await subscribeApi({
      request: await requestAs(user, "/api/membership/subscribe", { json: { planId } }),
      params: {},
      context,
    })) as Response;
    expect(response.status).toBe(201);
    approvalUrl = ((await response.json()) as { approvalUrl: string }).approvalUrl;
  } else {
    const response = (await membershipAction({
      request: await requestAs(user, "/membership", { form: { intent: "subscribe", planId } }),
      params: {},
      context,
    })) as Response;
    expect(response.status).toBe(302);
    approvalUrl = response.headers.get("location")!;
  }
  const token = tokenOf(approvalUrl);
  paypalFake.approve(token);
  return token;
}

async function returnTo(user: TestUser, token: string) {
  return (await returnLoader({
    request: await requestAs(user, `/membership/return?token=${token}`),
    params: {},
    context,
  })) as Response;
}

async function mailOf(userId: string, topic: string) {
  return sequelize.query<{ subject: string; text_body: string }>(
    "SELECT subject, text_body FROM mail_outbox WHERE user_id = :id AND topic = :topic ORDER BY id",
    { replacements: { id: userId, topic }, type: QueryTypes.SELECT },
  );
}

/** What the user paid for memberships: kept captures, applied purchases, receipts. */
async function keptOf(userId: string) {
  const [row] = await sequelize.query<{ kept: string; applied: string }>(
    `SELECT (SELECT count(*) FROM payment_orders o
              WHERE o.user_id = :id AND o.purpose = 'membership' AND o.status = 'captured'
                AND o.captured_amount > o.refunded_amount)::text AS kept,
            (SELECT count(*) FROM membership_purchases m
              WHERE m.user_id = :id AND m.status = 'applied')::text AS applied`,
    { replacements: { id: userId }, type: QueryTypes.SELECT },
  );
  const mail = await mailOf(userId, "membership_receipt");
  return { ...row, receipts: mail.filter((m) => m.subject.startsWith("Receipt:")).length };
}

async function expectPayablesExact() {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  try {
    expect((await payableChecks(pool)).filter((check) => !check.ok)).toEqual([]);
  } finally {
    await pool.end();
  }
}

const paidUntil = async (userId: string) =>
  formatDay((await activeMembership(userId))!.currentPeriodEnd, "America/Chicago");

describe("one payment per membership period", () => {
  it("two checkouts of one plan (JSON, then the form), returns seconds apart: one capture, the second says so", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ name: "Basic", price: "19.99" });
    const a = await checkout(user, plan.id, "json");
    const b = await checkout(user, plan.id, "form");
    expect((await toastOf(await returnTo(user, a)))?.title).toBe("Subscription Started!");
    const second = await toastOf(await returnTo(user, b));
    expect(second).toMatchObject({ title: "Already paid", type: "info" });
    expect(second!.description).toBe(
      `You already pay for Basic until ${await paidUntil(user.id)}. This checkout is closed; nothing was charged.`,
    );
    expect(paypalFake.calls.capture).toBe(1);
    expect(await keptOf(user.id)).toEqual({ kept: "1", applied: "1", receipts: 1 });
    expect(await PaymentOrder.findOne({ where: { providerOrderId: b } })).toMatchObject({
      status: "cancelled",
      captureId: null,
    });
    await expectPayablesExact();
  });

  it("three tabs, different plans, returned at once: one plan paid, once", async () => {
    const user = await createTestUser();
    const pro = await createTestPlan({ name: "Pro", price: "49.99" });
    const basic = await createTestPlan({ name: "Basic", price: "19.99" });
    const tokens = [
      await checkout(user, pro.id, "form"),
      await checkout(user, basic.id, "json"),
      await checkout(user, pro.id, "json"),
    ];
    const toasts = await Promise.all(
      [...tokens, ...tokens].map(async (t) => toastOf(await returnTo(user, t))),
    );
    expect(toasts.filter((t) => t?.type === "success").length).toBeGreaterThanOrEqual(1);
    expect(await keptOf(user.id)).toEqual({ kept: "1", applied: "1", receipts: 1 });
    const [captured] = await PaymentOrder.findAll({
      where: { userId: user.id, status: "captured" },
    });
    const purchase = await MembershipPurchase.findOne({
      where: { paymentOrderId: captured.id },
    });
    expect((await Membership.findOne({ where: { userId: user.id } }))!.planId).toBe(
      purchase!.planId,
    );
    expect(paypalFake.calls.capture).toBe(1);
    await expectPayablesExact();
  });

  it("a paid member asking for another checkout is told plainly, for any plan", async () => {
    const user = await createTestUser();
    const basic = await createTestPlan({ name: "Basic", price: "19.99" });
    const pro = await createTestPlan({ name: "Pro", price: "49.99" });
    await returnTo(user, await checkout(user, basic.id, "json"));
    const until = await paidUntil(user.id);
    for (const planId of [basic.id, pro.id]) {
      const error = (await beginSubscription(user.id, { planId }).catch(
        (e) => e,
      )) as MembershipError;
      expect(error).toBeInstanceOf(MembershipError);
      expect(error.status).toBe(409);
      expect(error.message).toContain(`You already pay for Basic until ${until}.`);
    }
    // the JSON call and the form say it as it is, not as a failure to try again
    const json = (await subscribeApi({
      request: await requestAs(user, "/api/membership/subscribe", { json: { planId: pro.id } }),
      params: {},
      context,
    })) as Response;
    expect(json.status).toBe(409);
    expect(((await json.json()) as { error: string }).error).toBe(
      `You already pay for Basic until ${until}. You can change to Pro once that period ends.`,
    );
    const form = (await membershipAction({
      request: await requestAs(user, "/membership", {
        form: { intent: "subscribe", planId: basic.id },
      }),
      params: {},
      context,
    })) as Response;
    expect(form.headers.get("location")).toBe("/membership");
    expect(await toastOf(form)).toEqual({
      title: "Already paid",
      description: `You already pay for Basic until ${until}. Renew it to pay the next period.`,
      type: "info",
    });
    expect(paypalFake.calls.create).toBe(1);
  });

  it("two renewals of one period: one extends it, the other is closed uncaptured", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ name: "Basic", price: "19.99" });
    await returnTo(user, await checkout(user, plan.id, "json"));
    const end = (await activeMembership(user.id))!.currentPeriodEnd;
    const first = tokenOf((await beginRenewal(user.id)).approvalUrl);
    const second = tokenOf((await beginRenewal(user.id)).approvalUrl);
    paypalFake.approve(first);
    paypalFake.approve(second);
    await Promise.all([returnTo(user, second), returnTo(user, first), returnTo(user, second)]);
    expect(await keptOf(user.id)).toEqual({ kept: "2", applied: "2", receipts: 2 });
    const after = (await activeMembership(user.id))!.currentPeriodEnd;
    expect(after.getTime() - end.getTime()).toBeLessThanOrEqual(31 * 24 * 3600 * 1000);
    expect(after.getTime()).toBeGreaterThan(end.getTime());
    expect(paypalFake.calls.capture).toBe(2);
    await expectPayablesExact();
  });

  it("a capture that cannot pay the period is refunded at PayPal, with its row and an e-mail; no receipt", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ name: "Basic", price: "19.99" });
    const token = await checkout(user, plan.id, "json");
    paypalFake.captureAmountOverride = "29.99";
    await returnTo(user, token);
    expect(await activeMembership(user.id)).toBeNull();
    const order = await PaymentOrder.findOne({ where: { providerOrderId: token } });
    const refunds = await PaymentRefund.findAll({ where: { paymentOrderId: order!.id } });
    expect(refunds.map((r) => [r.status, r.amount])).toEqual([["completed", "29.99"]]);
    expect(paypalFake.refundedTotal(token)).toBe(29.99);
    expect(await keptOf(user.id)).toEqual({ kept: "0", applied: "0", receipts: 0 });
    const refundMail = await sequelize.query<{ subject: string; text_body: string }>(
      "SELECT subject, text_body FROM mail_outbox WHERE user_id = :id AND subject LIKE 'Refund%'",
      { replacements: { id: user.id }, type: QueryTypes.SELECT },
    );
    expect(refundMail).toHaveLength(1);
    expect(refundMail[0].subject).toBe("Refund: $29.99 for your Basic membership");
    expect(refundMail[0].text_body).toContain("We refunded $29.99");
    await expectPayablesExact();
  });

  it("a tab captured at PayPal whose answer was lost, after another tab paid: found and refunded, with an e-mail", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ name: "Basic", price: "19.99" });
    const a = await checkout(user, plan.id, "json");
    const b = await checkout(user, plan.id, "json");
    // tab A: PayPal captures, and its answer never arrives
    paypalTimeouts.requestMs = 300;
    server.use(
      http.post(`${PAYPAL_BASE}/v2/checkout/orders/${a}/capture`, async ({ request }) => {
        paypalFake.captureElsewhere(a);
        await untilAborted(request.signal);
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    expect(await toastOf(await returnTo(user, a))).toMatchObject({ type: "error" });
    server.resetHandlers();
    paypalTimeouts.requestMs = 15_000;
    // tab B pays the period
    expect((await toastOf(await returnTo(user, b)))?.title).toBe("Subscription Started!");
    // tab A comes back: its money is found at PayPal and refunded in full
    const back = await toastOf(await returnTo(user, a));
    expect(back).toMatchObject({ title: "Already paid", type: "info" });
    expect(back!.description).toBe(
      `You already pay for Basic until ${await paidUntil(user.id)}. This checkout was charged all the same, so we refund it in full.`,
    );
    expect(paypalFake.refundedTotal(a)).toBe(19.99);
    const order = await PaymentOrder.findOne({ where: { providerOrderId: a } });
    const refunds = await PaymentRefund.findAll({ where: { paymentOrderId: order!.id } });
    expect(refunds.map((r) => [r.status, r.amount])).toEqual([["completed", "19.99"]]);
    expect(await keptOf(user.id)).toEqual({ kept: "1", applied: "1", receipts: 1 });
    const refundMail = await sequelize.query<{ subject: string; text_body: string }>(
      "SELECT subject, text_body FROM mail_outbox WHERE user_id = :id AND subject LIKE 'Refund%'",
      { replacements: { id: user.id }, type: QueryTypes.SELECT },
    );
    expect(refundMail.map((m) => m.subject)).toEqual(["Refund: $19.99 for your Basic membership"]);
    expect(refundMail[0].text_body).toContain("One payment per period is kept");
    // a further return changes nothing
    await returnTo(user, a);
    expect(paypalFake.refundedTotal(a)).toBe(19.99);
    await expectPayablesExact();
  });
});
