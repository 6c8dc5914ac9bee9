// Subscribing and renewing through the real PayPal client code, with msw playing PayPal.
import { http, HttpResponse } from "msw";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { Membership, MembershipPurchase } from "~/models/membership.server";
import { PaymentOrder } from "~/models/payment.server";
import { action as subscribeApi } from "~/routes/api.membership.subscribe";
import { action as membershipAction } from "~/routes/membership";
import { loader as cancelLoader } from "~/routes/membership_.cancel";
import { loader as returnLoader } from "~/routes/membership_.return";
import { forgetPayPalToken } from "~/platform/payments/paypal.server";
import { PaymentFailedError } from "~/services/memberships/billing.server";
import {
  beginRenewal,
  beginSubscription,
  completeMembershipPayment,
} from "~/services/memberships/billing.server";
import {
  activeMembership,
  cancelMembership,
  MembershipError,
  startTrial,
  userMembership,
} from "~/services/memberships/memberships.server";
import { resetEnvForTests } from "~/platform/env.server";
import { addDays, addMonths } from "~/services/memberships/rules";
import { loader as membershipLoader } from "~/routes/membership";
import { PAYPAL_BASE, PAYPAL_TEST_CREDENTIALS, paypalFake } from "../mocks/paypal";
import { server } from "../mocks/server";
import { createTestUser, requestAs } from "../support/auth";
import { createTestCampaign, createTestPlan, toastOf } from "../support/memberships";

type TestUser = Awaited<ReturnType<typeof createTestUser>>;
const DAY_MS = 24 * 60 * 60 * 1000;
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
afterEach(() => server.resetHandlers());
afterAll(() => {
  delete process.env.PAYPAL_CLIENT_ID;
  delete process.env.PAYPAL_CLIENT_SECRET;
  resetEnvForTests();
});

async function post(user: TestUser, form: Record<string, string>) {
  return (await membershipAction({
    request: await requestAs(user, "/membership", { form }),
    params: {},
    context,
  })) as Response;
}

async function back(user: TestUser, route: "return" | "cancel", token: string) {
  const loader = route === "return" ? returnLoader : cancelLoader;
  return (await loader({
    request: await requestAs(user, `/membership/${route}?token=${token}`),
    params: {},
    context,
  })) as Response;
}

/** Subscribe Now on the page: answers PayPal's order id from the approval redirect. */
async function subscribeNow(user: TestUser, planId: string) {
  const response = await post(user, { intent: "subscribe", planId });
  expect(response.status).toBe(302);
  const location = response.headers.get("location")!;
  expect(location).toMatch(/^https:\/\/www\.sandbox\.paypal\.com\/checkoutnow\?token=/);
  return tokenOf(location);
}

const SUBSCRIBED = {
  title: "Subscription Started!",
  description: "Welcome to your new membership plan.",
  type: "success",
};
const FAILED = {
  title: "Error",
  description: "Failed to start subscription. Please try again.",
  type: "error",
};

describe("Subscribe Now pays the first period through PayPal", () => {
  it("paid monthly → active until one month from now, with its toast", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ price: "49.99", billingInterval: "monthly" });
    const token = await subscribeNow(user, plan.id);
    expect(paypalFake.orders.get(token)).toMatchObject({
      amount: "49.99",
      returnUrl: "http://localhost:3000/membership/return",
      cancelUrl: "http://localhost:3000/membership/cancel",
    });
    expect(await activeMembership(user.id)).toBeNull();

    paypalFake.approve(token);
    const before = new Date();
    const response = await back(user, "return", token);
    const after = new Date();
    expect(response.headers.get("location")).toBe("/membership");
    expect(await toastOf(response)).toEqual(SUBSCRIBED);
    const membership = await activeMembership(user.id);
    expect(membership).toMatchObject({ planId: plan.id, status: "active", vehicleLimit: null });
    const end = membership!.currentPeriodEnd.getTime();
    expect(end).toBeGreaterThanOrEqual(addMonths(before, 1).getTime() - 1);
    expect(end).toBeLessThanOrEqual(addMonths(after, 1).getTime() + 1);
    expect(await PaymentOrder.findOne({ where: { providerOrderId: token } })).toMatchObject({
      purpose: "membership",
      status: "captured",
      capturedAmount: "49.99",
    });
  });

  it("paid yearly → active until one year from now; a second return changes nothing", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({
      name: "Premium Yearly",
      price: "499.00",
      billingInterval: "yearly",
    });
    const now = new Date("2026-11-22T10:00:00Z");
    const started = await beginSubscription(user.id, { planId: plan.id }, { now });
    paypalFake.approve(tokenOf(started.approvalUrl));
    const first = await completeMembershipPayment(user.id, tokenOf(started.approvalUrl), { now });
    expect(first).toEqual({ kind: "subscribe", settledNow: true });
    const again = await completeMembershipPayment(user.id, tokenOf(started.approvalUrl), {
      now: new Date(now.getTime() + DAY_MS),
    });
    expect(again.settledNow).toBe(false);
    const membership = await activeMembership(user.id, undefined, now);
    expect(membership!.currentPeriodEnd.toISOString()).toBe("2027-11-22T10:00:00.000Z");
    expect(await MembershipPurchase.count({ where: { userId: user.id, status: "applied" } })).toBe(
      1,
    );
    expect(paypalFake.calls.capture).toBe(1);
    // one receipt for the one payment, under its own preference (docs/decisions/3305)
    const receipts = await sequelize.query<{ subject: string; text_body: string }>(
      "SELECT subject, text_body FROM mail_outbox WHERE user_id = :id AND topic = 'membership_receipt'",
      { replacements: { id: user.id }, type: QueryTypes.SELECT },
    );
    expect(receipts).toHaveLength(1);
    expect(receipts[0].subject).toBe("Receipt: Premium Yearly membership, $499.00");
    expect(receipts[0].text_body).toMatch(/It pays for \w+ 22, 2026 to \w+ 22, 2027\./);
  });

  it("a trialing user who subscribes becomes active and keeps having used the trial", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const campaign = await createTestCampaign();
    await startTrial(user.id, { planId: plan.id, campaignId: campaign.id });
    const token = await subscribeNow(user, plan.id);
    paypalFake.approve(token);
    await back(user, "return", token);
    expect(await userMembership(user.id)).toMatchObject({
      status: "active",
      hasUsedTrial: true,
      planId: plan.id,
    });
  });

  it("subscribing during a trial keeps its remaining days: one exact charge, the paid month from the trial's end", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ name: "Basic", price: "19.99", vehicleLimit: 10 });
    const campaign = await createTestCampaign({ trialDays: 14 });
    const trialStart = new Date();
    await startTrial(user.id, { planId: plan.id, campaignId: campaign.id }, trialStart);
    const trialEnd = addDays(trialStart, 14);
    const now = addDays(trialStart, 4); // ten free days left

    const started = await beginSubscription(user.id, { planId: plan.id }, { now });
    const token = tokenOf(started.approvalUrl);
    expect(paypalFake.orders.get(token)!.amount).toBe("19.99");
    paypalFake.approve(token);
    await completeMembershipPayment(user.id, token, { now });

    const membership = await activeMembership(user.id, undefined, now);
    expect(membership).toMatchObject({ planId: plan.id, status: "active" });
    expect(membership!.currentPeriodStart.toISOString()).toBe(trialEnd.toISOString());
    expect(membership!.currentPeriodEnd.toISOString()).toBe(addMonths(trialEnd, 1).toISOString());
    expect(await userMembership(user.id, now)).toMatchObject({
      trialEndsAt: trialEnd.toISOString(),
      hasUsedTrial: true,
    });
    const purchases = await MembershipPurchase.findAll({ where: { userId: user.id } });
    expect(purchases.map((p) => [p.amount, p.status])).toEqual([["19.99", "applied"]]);
    expect(purchases[0].periodStart!.toISOString()).toBe(trialEnd.toISOString());
    expect(paypalFake.calls.capture).toBe(1);
    // once the free days are over, the paid month runs; nothing is free any more
    const later = addDays(trialEnd, 1);
    expect(await userMembership(user.id, later)).toMatchObject({
      status: "active",
      trialEndsAt: null,
    });
  });

  it("the page says before paying what a trialing user is charged and for which dates", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ name: "Basic", price: "19.99", vehicleLimit: 10 });
    const campaign = await createTestCampaign({ trialDays: 14 });
    const trial = await startTrial(user.id, { planId: plan.id, campaignId: campaign.id });
    const page = (await membershipLoader({
      request: await requestAs(user, "/membership"),
      params: {},
      context,
    })) as unknown as {
      data: { terms: Record<string, { start: string; end: string; keepsTrial: boolean }> };
    };
    expect(page.data.terms[plan.id]).toEqual({
      start: trial.currentPeriodEnd.toISOString(),
      end: addMonths(trial.currentPeriodEnd, 1).toISOString(),
      keepsTrial: true,
    });
  });

  it("payment declined → nothing, and the failure toast", async () => {
    server.use(
      http.post(`${PAYPAL_BASE}/v2/checkout/orders/:id/capture`, () =>
        HttpResponse.json(
          { name: "UNPROCESSABLE_ENTITY", details: [{ issue: "INSTRUMENT_DECLINED" }] },
          { status: 422 },
        ),
      ),
    );
    const user = await createTestUser();
    const plan = await createTestPlan();
    const token = await subscribeNow(user, plan.id);
    paypalFake.approve(token);
    const response = await back(user, "return", token);
    expect(await toastOf(response)).toEqual(FAILED);
    expect(await Membership.count({ where: { userId: user.id } })).toBe(0);
    expect(await PaymentOrder.findOne({ where: { providerOrderId: token } })).toMatchObject({
      status: "created",
    });
  });

  it("returning without approving captures nothing and activates nothing", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const started = await beginSubscription(user.id, { planId: plan.id });
    await expect(
      completeMembershipPayment(user.id, tokenOf(started.approvalUrl)),
    ).rejects.toBeInstanceOf(PaymentFailedError);
    expect(await Membership.count({ where: { userId: user.id } })).toBe(0);
  });

  it("PayPal down when subscribing → the failure toast, nothing written", async () => {
    server.use(
      http.post(`${PAYPAL_BASE}/v2/checkout/orders`, () =>
        HttpResponse.json({ name: "INTERNAL_SERVER_ERROR" }, { status: 500 }),
      ),
    );
    const user = await createTestUser();
    const plan = await createTestPlan();
    const response = await post(user, { intent: "subscribe", planId: plan.id });
    expect(response.headers.get("location")).toBe("/membership");
    expect(await toastOf(response)).toEqual(FAILED);
    expect(await MembershipPurchase.count({ where: { userId: user.id } })).toBe(0);
  });

  it("a capture of another amount activates nothing", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ price: "49.99" });
    const token = await subscribeNow(user, plan.id);
    paypalFake.approve(token);
    paypalFake.captureAmountOverride = "0.01";
    const response = await back(user, "return", token);
    expect(await toastOf(response)).toEqual(FAILED);
    expect(await Membership.count({ where: { userId: user.id } })).toBe(0);
  });

  it("payment cancelled at PayPal → nothing changes, with a clear message", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const token = await subscribeNow(user, plan.id);
    const response = await back(user, "cancel", token);
    expect(response.headers.get("location")).toBe("/membership");
    expect(await toastOf(response)).toEqual({
      title: "Payment Cancelled",
      description: "You cancelled the payment. Your membership has not changed.",
      type: "info",
    });
    expect(await Membership.count({ where: { userId: user.id } })).toBe(0);
    expect(await MembershipPurchase.findOne({ where: { userId: user.id } })).toMatchObject({
      status: "cancelled",
    });
    expect(await PaymentOrder.findOne({ where: { providerOrderId: token } })).toMatchObject({
      status: "cancelled",
    });
  });

  it("someone else's order is not found and activates nothing", async () => {
    const payer = await createTestUser();
    const thief = await createTestUser();
    const plan = await createTestPlan();
    const token = await subscribeNow(payer, plan.id);
    paypalFake.approve(token);
    const response = await back(thief, "return", token);
    expect(await toastOf(response)).toEqual(FAILED);
    expect(await Membership.count({ where: { userId: thief.id } })).toBe(0);
    expect(paypalFake.calls.capture).toBe(0);
  });

  it("refuses the free tier, an unknown plan, an ended campaign and the plan already paid", async () => {
    const user = await createTestUser();
    const free = await createTestPlan({ name: "Free", price: "0.00", vehicleLimit: 3 });
    const plan = await createTestPlan();
    const ended = await createTestCampaign({
      startsAt: new Date(Date.now() - 10 * DAY_MS),
      endDate: new Date(Date.now() - 1000),
    });
    const statusOf = (p: Promise<unknown>) =>
      p.then(
        () => 0,
        (e) => (e as MembershipError).status,
      );
    expect(await statusOf(beginSubscription(user.id, { planId: free.id }))).toBe(400);
    expect(await statusOf(beginSubscription(user.id, { planId: "999999" }))).toBe(404);
    expect(
      await statusOf(beginSubscription(user.id, { planId: plan.id, campaignId: ended.id })),
    ).toBe(400);
    const token = await subscribeNow(user, plan.id);
    paypalFake.approve(token);
    await back(user, "return", token);
    expect(await statusOf(beginSubscription(user.id, { planId: plan.id }))).toBe(409);
    expect(paypalFake.calls.create).toBe(1);
  });
});

describe("POST /api/membership/subscribe", () => {
  async function call(user: TestUser, json: unknown) {
    try {
      return (await subscribeApi({
        request: await requestAs(user, "/api/membership/subscribe", { json }),
        params: {},
        context,
      })) as Response;
    } catch (error) {
      if (error instanceof Response) return error;
      throw error;
    }
  }

  it("answers the approval link; the membership starts once the payment is captured", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const campaign = await createTestCampaign();
    const response = await call(user, { planId: Number(plan.id), campaignId: campaign.id });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { approvalUrl: string; paymentOrderId: string };
    expect(body.approvalUrl).toMatch(/^https:\/\/www\.sandbox\.paypal\.com\/checkoutnow/);
    paypalFake.approve(tokenOf(body.approvalUrl));
    await back(user, "return", tokenOf(body.approvalUrl));
    const membership = await Membership.findOne({ where: { userId: user.id } });
    expect(membership).toMatchObject({ status: "active", campaignId: campaign.id });
  });

  it("answers 4xx with a message for bad input, the free tier and PayPal failures 502", async () => {
    const user = await createTestUser();
    const free = await createTestPlan({ name: "Free", price: "0.00", vehicleLimit: 3 });
    expect((await call(user, { planId: "x" })).status).toBe(400);
    const refused = await call(user, { planId: free.id });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^Failed to start subscription\. Please try again\./,
    );
    server.use(
      http.post(`${PAYPAL_BASE}/v2/checkout/orders`, () =>
        HttpResponse.json({ name: "INTERNAL_SERVER_ERROR" }, { status: 503 }),
      ),
    );
    const plan = await createTestPlan();
    expect((await call(user, { planId: plan.id })).status).toBe(502);
    expect(await MembershipPurchase.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("cancel and renew", () => {
  async function paidMembership(user: TestUser, planId: string, now = new Date()) {
    const started = await beginSubscription(user.id, { planId }, { now });
    paypalFake.approve(tokenOf(started.approvalUrl));
    await completeMembershipPayment(user.id, tokenOf(started.approvalUrl), { now });
  }

  it("cancel keeps the membership to its period end, then it stops counting", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    await paidMembership(user, plan.id);
    const before = await activeMembership(user.id);
    const response = await post(user, { intent: "cancel" });
    expect((await toastOf(response))?.title).toBe("Membership Cancelled");
    const after = await activeMembership(user.id);
    expect(after).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    expect(after!.currentPeriodEnd).toEqual(before!.currentPeriodEnd);
    expect(
      await activeMembership(user.id, undefined, new Date(before!.currentPeriodEnd.getTime() + 1)),
    ).toBeNull();
  });

  it("renew pays the next period: it extends from the current end and clears the cancel", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const now = new Date("2026-11-22T10:00:00Z");
    await paidMembership(user, plan.id, now);
    await cancelMembership(user.id, now);
    const renewal = await beginRenewal(user.id);
    paypalFake.approve(tokenOf(renewal.approvalUrl));
    const renewedAt = new Date("2026-12-01T10:00:00Z");
    const result = await completeMembershipPayment(user.id, tokenOf(renewal.approvalUrl), {
      now: renewedAt,
    });
    expect(result.kind).toBe("renew");
    const membership = await activeMembership(user.id, undefined, renewedAt);
    expect(membership).toMatchObject({ status: "active", cancelAtPeriodEnd: false });
    expect(membership!.currentPeriodEnd.toISOString()).toBe("2027-01-22T10:00:00.000Z");
  });

  it("Renew Now on the page goes to PayPal and comes back renewed", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ price: "19.99" });
    await paidMembership(user, plan.id);
    const end = (await activeMembership(user.id))!.currentPeriodEnd;
    const response = await post(user, { intent: "renew" });
    const token = tokenOf(response.headers.get("location")!);
    expect(paypalFake.orders.get(token)?.amount).toBe("19.99");
    paypalFake.approve(token);
    const returned = await back(user, "return", token);
    expect((await toastOf(returned))?.title).toBe("Membership Renewed");
    expect((await activeMembership(user.id))!.currentPeriodEnd.toISOString()).toBe(
      addMonths(end, 1).toISOString(),
    );
  });

  it("renewing an expired membership starts a fresh period now", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    await paidMembership(user, plan.id);
    await Membership.update(
      {
        currentPeriodStart: new Date(Date.now() - 40 * DAY_MS),
        currentPeriodEnd: new Date(Date.now() - 10 * DAY_MS),
      },
      { where: { userId: user.id } },
    );
    const renewal = await beginRenewal(user.id);
    paypalFake.approve(tokenOf(renewal.approvalUrl));
    const now = new Date();
    await completeMembershipPayment(user.id, tokenOf(renewal.approvalUrl), { now });
    const membership = await activeMembership(user.id, undefined, now);
    expect(membership!.currentPeriodEnd.toISOString()).toBe(addMonths(now, 1).toISOString());
  });

  it("a trialing user cannot renew, and cancel needs a membership", async () => {
    const user = await createTestUser();
    expect(((await cancelMembership(user.id).catch((e) => e)) as MembershipError).status).toBe(404);
    const plan = await createTestPlan();
    const campaign = await createTestCampaign();
    await startTrial(user.id, { planId: plan.id, campaignId: campaign.id });
    const error = (await beginRenewal(user.id).catch((e) => e)) as MembershipError;
    expect(error.status).toBe(400);
  });
});
