import { describe, expect, it } from "vitest";
import { Membership, MembershipPurchase } from "~/models/membership.server";
import { PaymentFailedError } from "~/services/membership-checkout.server";
import {
  activeMembership,
  beginRenewal,
  beginSubscription,
  cancelMembership,
  cancelMembershipPayment,
  completeMembershipPayment,
  MembershipError,
  startTrial,
  userMembership,
} from "~/services/memberships.server";
import { addMonths } from "~/utils/memberships";
import { createTestUser } from "../support/auth";
import { createTestCampaign, createTestPlan, fakeCheckout } from "../support/memberships";

const DAY_MS = 24 * 60 * 60 * 1000;
const tokenOf = (approvalUrl: string) => new URL(approvalUrl).searchParams.get("token")!;

describe("subscribing pays the first period through the gateway", () => {
  it("paid monthly → active until one month from now", async () => {
    const { checkout } = fakeCheckout();
    const user = await createTestUser();
    const plan = await createTestPlan({ price: "49.99", billingInterval: "monthly" });
    const started = await beginSubscription(user.id, { planId: plan.id }, { checkout });
    expect(await activeMembership(user.id)).toBeNull();

    const now = new Date("2026-11-22T10:00:00Z");
    const paidAt = new Date(now.getTime());
    const result = await completeMembershipPayment(user.id, tokenOf(started.approvalUrl), {
      checkout,
      now: paidAt,
    });
    expect(result).toEqual({ kind: "subscribe", settledNow: true });
    const membership = await activeMembership(user.id, undefined, now);
    expect(membership).toMatchObject({ planId: plan.id, status: "active", vehicleLimit: null });
    expect(membership!.currentPeriodEnd.toISOString()).toBe("2026-12-22T10:00:00.000Z");
  });

  it("paid yearly → active until one year from now; a second return changes nothing", async () => {
    const { checkout } = fakeCheckout();
    const user = await createTestUser();
    const plan = await createTestPlan({
      name: "Premium Yearly",
      price: "499.00",
      billingInterval: "yearly",
    });
    const started = await beginSubscription(user.id, { planId: plan.id }, { checkout });
    const now = new Date();
    await completeMembershipPayment(user.id, tokenOf(started.approvalUrl), { checkout, now });
    const again = await completeMembershipPayment(user.id, tokenOf(started.approvalUrl), {
      checkout,
      now: new Date(now.getTime() + DAY_MS),
    });
    expect(again.settledNow).toBe(false);
    const membership = await activeMembership(user.id);
    expect(membership!.currentPeriodEnd.toISOString()).toBe(addMonths(now, 12).toISOString());
    expect(await MembershipPurchase.count({ where: { userId: user.id, status: "applied" } })).toBe(
      1,
    );
  });

  it("a trialing user who subscribes becomes active and keeps having used the trial", async () => {
    const { checkout } = fakeCheckout();
    const user = await createTestUser();
    const plan = await createTestPlan();
    const campaign = await createTestCampaign();
    await startTrial(user.id, { planId: plan.id, campaignId: campaign.id });
    const started = await beginSubscription(user.id, { planId: plan.id }, { checkout });
    await completeMembershipPayment(user.id, tokenOf(started.approvalUrl), { checkout });
    expect(await userMembership(user.id)).toMatchObject({
      status: "active",
      hasUsedTrial: true,
      planId: plan.id,
    });
  });

  it("payment declined → nothing changes", async () => {
    const { checkout, state } = fakeCheckout();
    const user = await createTestUser();
    const plan = await createTestPlan();
    const started = await beginSubscription(user.id, { planId: plan.id }, { checkout });
    state.captureOutcome = "declined";
    await expect(
      completeMembershipPayment(user.id, tokenOf(started.approvalUrl), { checkout }),
    ).rejects.toBeInstanceOf(PaymentFailedError);
    expect(await Membership.count({ where: { userId: user.id } })).toBe(0);
    expect(await MembershipPurchase.findOne({ where: { userId: user.id } })).toMatchObject({
      status: "pending",
    });
  });

  it("a capture of the wrong amount activates nothing", async () => {
    const { checkout, state } = fakeCheckout();
    const user = await createTestUser();
    const plan = await createTestPlan({ price: "49.99" });
    const started = await beginSubscription(user.id, { planId: plan.id }, { checkout });
    state.captureOutcome = { amount: "0.01" };
    await expect(
      completeMembershipPayment(user.id, tokenOf(started.approvalUrl), { checkout }),
    ).rejects.toThrow(/Captured 0.01/);
    expect(await Membership.count({ where: { userId: user.id } })).toBe(0);
  });

  it("payment cancelled at the provider → nothing changes", async () => {
    const { checkout } = fakeCheckout();
    const user = await createTestUser();
    const plan = await createTestPlan();
    const started = await beginSubscription(user.id, { planId: plan.id }, { checkout });
    await cancelMembershipPayment(user.id, tokenOf(started.approvalUrl), { checkout });
    expect(await Membership.count({ where: { userId: user.id } })).toBe(0);
    expect(await MembershipPurchase.findOne({ where: { userId: user.id } })).toMatchObject({
      status: "cancelled",
    });
  });

  it("someone else's order is not found and activates nothing", async () => {
    const { checkout } = fakeCheckout();
    const payer = await createTestUser();
    const thief = await createTestUser();
    const plan = await createTestPlan();
    const started = await beginSubscription(payer.id, { planId: plan.id }, { checkout });
    const error = await completeMembershipPayment(thief.id, tokenOf(started.approvalUrl), {
      checkout,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(MembershipError);
    expect((error as MembershipError).status).toBe(404);
    expect(await Membership.count({ where: { userId: thief.id } })).toBe(0);
  });

  it("refuses the free tier, an unknown plan, an ended campaign and the plan already paid", async () => {
    const { checkout } = fakeCheckout();
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
    expect(await statusOf(beginSubscription(user.id, { planId: free.id }, { checkout }))).toBe(400);
    expect(await statusOf(beginSubscription(user.id, { planId: "999999" }, { checkout }))).toBe(
      404,
    );
    expect(
      await statusOf(
        beginSubscription(user.id, { planId: plan.id, campaignId: ended.id }, { checkout }),
      ),
    ).toBe(400);
    const started = await beginSubscription(user.id, { planId: plan.id }, { checkout });
    await completeMembershipPayment(user.id, tokenOf(started.approvalUrl), { checkout });
    expect(await statusOf(beginSubscription(user.id, { planId: plan.id }, { checkout }))).toBe(409);
  });
});

describe("cancel and renew", () => {
  it("cancel keeps the membership to its period end, then it stops counting", async () => {
    const { checkout } = fakeCheckout();
    const user = await createTestUser();
    const plan = await createTestPlan();
    const started = await beginSubscription(user.id, { planId: plan.id }, { checkout });
    await completeMembershipPayment(user.id, tokenOf(started.approvalUrl), { checkout });
    const before = await activeMembership(user.id);
    await cancelMembership(user.id);
    const after = await activeMembership(user.id);
    expect(after).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    expect(after!.currentPeriodEnd).toEqual(before!.currentPeriodEnd);
    expect(
      await activeMembership(user.id, undefined, new Date(before!.currentPeriodEnd.getTime() + 1)),
    ).toBeNull();
  });

  it("renew pays the next period: it extends from the current end and clears the cancel", async () => {
    const { checkout } = fakeCheckout();
    const user = await createTestUser();
    const plan = await createTestPlan();
    const now = new Date("2026-11-22T10:00:00Z");
    const first = await beginSubscription(user.id, { planId: plan.id }, { checkout, now });
    await completeMembershipPayment(user.id, tokenOf(first.approvalUrl), { checkout, now });
    await cancelMembership(user.id, now);
    const renewal = await beginRenewal(user.id, { checkout });
    const renewedAt = new Date("2026-12-01T10:00:00Z");
    const result = await completeMembershipPayment(user.id, tokenOf(renewal.approvalUrl), {
      checkout,
      now: renewedAt,
    });
    expect(result.kind).toBe("renew");
    const membership = await activeMembership(user.id, undefined, renewedAt);
    expect(membership).toMatchObject({ status: "active", cancelAtPeriodEnd: false });
    expect(membership!.currentPeriodEnd.toISOString()).toBe("2027-01-22T10:00:00.000Z");
  });

  it("renewing an expired membership starts a fresh period now", async () => {
    const { checkout } = fakeCheckout();
    const user = await createTestUser();
    const plan = await createTestPlan();
    const first = await beginSubscription(user.id, { planId: plan.id }, { checkout });
    await completeMembershipPayment(user.id, tokenOf(first.approvalUrl), { checkout });
    await Membership.update(
      {
        currentPeriodStart: new Date(Date.now() - 40 * DAY_MS),
        currentPeriodEnd: new Date(Date.now() - 10 * DAY_MS),
      },
      { where: { userId: user.id } },
    );
    const renewal = await beginRenewal(user.id, { checkout });
    const now = new Date();
    await completeMembershipPayment(user.id, tokenOf(renewal.approvalUrl), { checkout, now });
    const membership = await activeMembership(user.id, undefined, now);
    expect(membership!.currentPeriodEnd.toISOString()).toBe(addMonths(now, 1).toISOString());
  });

  it("a trialing user cannot renew, and cancel needs a membership", async () => {
    const { checkout } = fakeCheckout();
    const user = await createTestUser();
    expect(((await cancelMembership(user.id).catch((e) => e)) as MembershipError).status).toBe(404);
    const plan = await createTestPlan();
    const campaign = await createTestCampaign();
    await startTrial(user.id, { planId: plan.id, campaignId: campaign.id });
    const error = (await beginRenewal(user.id, { checkout }).catch((e) => e)) as MembershipError;
    expect(error.status).toBe(400);
  });
});
