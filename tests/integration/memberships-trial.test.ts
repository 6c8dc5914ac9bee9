import { describe, expect, it } from "vitest";
import { Membership, MembershipTrial } from "~/models/membership.server";
import { action as startTrialApi } from "~/routes/api.membership.start-trial";
import { action as membershipAction, loader as membershipLoader } from "~/routes/membership";
import { activeMembership, startTrial } from "~/services/memberships/memberships.server";
import { createTestUser, requestAs } from "../support/auth";
import { createTestCampaign, createTestPlan, toastOf } from "../support/memberships";

const DAY_MS = 24 * 60 * 60 * 1000;
const context = {};

async function pageData(user: Awaited<ReturnType<typeof createTestUser>>) {
  const response = (await membershipLoader({
    request: await requestAs(user, "/membership"),
    params: {},
    context,
  })) as unknown as { data: Awaited<ReturnType<typeof membershipLoader>>["data"] };
  return response.data;
}

describe("starting a free trial", () => {
  it("starts trialing for the campaign's days, without payment", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const campaign = await createTestCampaign({ trialDays: 7 });
    const now = new Date();
    const membership = await startTrial(user.id, { planId: plan.id, campaignId: campaign.id }, now);
    expect(membership).toMatchObject({ planId: plan.id, status: "trialing" });
    expect(membership.currentPeriodEnd.getTime()).toBe(now.getTime() + 7 * DAY_MS);
    expect(await MembershipTrial.count({ where: { userId: user.id } })).toBe(1);
  });

  it("is refused without a running trial campaign: inactive or ended offers none", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const inactive = await createTestCampaign({ active: false });
    const ended = await createTestCampaign({
      startsAt: new Date(Date.now() - 10 * DAY_MS),
      endDate: new Date(Date.now() - 1000),
    });
    for (const campaign of [inactive, ended]) {
      await expect(startTrial(user.id, { planId: plan.id, campaignId: campaign.id })).toBeRefused(
        400,
      );
    }
    expect(await Membership.count({ where: { userId: user.id } })).toBe(0);
    expect(await MembershipTrial.count({ where: { userId: user.id } })).toBe(0);

    // The page offers no trial button while only ended campaigns exist for this plan set.
    await ended.update({ active: true });
    const data = await pageData(user);
    expect(data.campaigns.map((c) => c.id)).not.toContain(ended.id);
    expect(data.campaigns.map((c) => c.id)).not.toContain(inactive.id);
  });

  it("is refused on the free tier", async () => {
    const user = await createTestUser();
    const free = await createTestPlan({ name: "Free", price: "0.00", vehicleLimit: 3 });
    const campaign = await createTestCampaign();
    await expect(startTrial(user.id, { planId: free.id, campaignId: campaign.id })).toBeRefused(
      400,
    );
  });

  it("is once per user ever: a second try is refused, even on another plan after expiry", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const other = await createTestPlan({ name: "Basic", price: "19.99", vehicleLimit: 10 });
    const campaign = await createTestCampaign();
    await startTrial(user.id, { planId: plan.id, campaignId: campaign.id });
    await expect(startTrial(user.id, { planId: plan.id, campaignId: campaign.id })).toBeRefused(
      409,
    );

    await Membership.update(
      {
        currentPeriodStart: new Date(Date.now() - 20 * DAY_MS),
        currentPeriodEnd: new Date(Date.now() - 1000),
      },
      { where: { userId: user.id } },
    );
    expect(await activeMembership(user.id)).toBeNull();
    await expect(startTrial(user.id, { planId: other.id, campaignId: campaign.id })).toBeRefused(
      409,
    );
    expect((await pageData(user)).trialOffer).toBeNull();
  });

  it("two trials started at once: exactly one wins, the other is a 4xx", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const campaign = await createTestCampaign();
    const calls = await Promise.all(
      Array.from({ length: 5 }, async () =>
        startTripApi(user, { planId: plan.id, campaignId: campaign.id }),
      ),
    );
    const statuses = calls.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    expect(await MembershipTrial.count({ where: { userId: user.id } })).toBe(1);
    expect(await Membership.count({ where: { userId: user.id } })).toBe(1);
  });

  it("the database itself refuses a second trial row for a user", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const campaign = await createTestCampaign();
    const row = {
      userId: user.id,
      campaignId: campaign.id,
      planId: plan.id,
      endsAt: new Date(Date.now() + DAY_MS),
    };
    await MembershipTrial.create(row);
    await expect(MembershipTrial.create(row)).rejects.toThrow();
  });
});

async function startTripApi(
  user: Awaited<ReturnType<typeof createTestUser>>,
  json: Record<string, unknown>,
) {
  try {
    return (await startTrialApi({
      request: await requestAs(user, "/api/membership/start-trial", { json }),
      params: {},
      context,
    })) as Response;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

describe("the trial buttons and call", () => {
  it("the page's Start Free Trial post redirects with its toast", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan();
    const campaign = await createTestCampaign({ trialDays: 10 });
    const data = await pageData(user);
    expect(data.trialOffer).toMatchObject({ trialDays: expect.any(Number) });

    const response = (await membershipAction({
      request: await requestAs(user, "/membership", {
        form: { intent: "start-trial", planId: plan.id, campaignId: campaign.id },
      }),
      params: {},
      context,
    })) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/membership");
    expect(await toastOf(response)).toEqual({
      title: "Trial Started!",
      description: "Enjoy your free trial period.",
      type: "success",
    });
    const after = await pageData(user);
    expect(after.membership).toMatchObject({
      hasActiveMembership: true,
      status: "trialing",
      planId: plan.id,
      hasUsedTrial: true,
    });
    expect(after.trialOffer).toBeNull();

    const again = (await membershipAction({
      request: await requestAs(user, "/membership", {
        form: { intent: "start-trial", planId: plan.id, campaignId: campaign.id },
      }),
      params: {},
      context,
    })) as Response;
    expect((await toastOf(again))?.description).toMatch(
      /^Failed to start trial\. Please try again\. You have already used your free trial\.$/,
    );
  });

  it("the call answers 400 for a bad body and 401 without a user, writing nothing", async () => {
    const user = await createTestUser();
    const bad = await startTripApi(user, { planId: "abc" });
    expect(bad.status).toBe(400);
    let unauthorised: Response | undefined;
    try {
      await startTrialApi({
        request: await requestAs(null, "/api/membership/start-trial", { json: {} }),
        params: {},
        context,
      });
    } catch (error) {
      unauthorised = error as Response;
    }
    expect(unauthorised?.status).toBe(401);
    expect(await Membership.count({ where: { userId: user.id } })).toBe(0);
  });
});
