import { describe, expect, it } from "vitest";
import { Campaign, MembershipPlan } from "~/models/membership.server";
import { loader as activeCampaignsApi } from "~/routes/api.campaigns.active";
import { loader as plansApi } from "~/routes/api.membership.plans";
import { loader as userMembershipApi } from "~/routes/api.user.membership";
import { startTrial } from "~/services/memberships/memberships.server";
import { runSeeds } from "../../db/seeds/index";
import { createTestUser, requestAs } from "../support/auth";
import { createTestCampaign, createTestPlan } from "../support/memberships";

const DAY_MS = 24 * 60 * 60 * 1000;
const context = {};
/** A signed-out GET, as Remix calls a loader. */
const get = (path: string) => ({
  request: new Request(`http://localhost${path}`),
  params: {},
  context,
});

describe("membership seed", () => {
  it("has a free tier, monthly and yearly paid plans, a Pro/Premium one and a running trial", async () => {
    await runSeeds([], () => undefined);
    const first = await MembershipPlan.findAll({ order: [["id", "ASC"]], raw: true });
    await runSeeds([], () => undefined);
    expect(await MembershipPlan.findAll({ order: [["id", "ASC"]], raw: true })).toEqual(first);

    expect(first.some((p) => p.price === "0.00")).toBe(true);
    expect(first.some((p) => p.price !== "0.00" && p.billingInterval === "monthly")).toBe(true);
    expect(first.some((p) => p.price !== "0.00" && p.billingInterval === "yearly")).toBe(true);
    expect(first.some((p) => /pro|premium/i.test(p.name))).toBe(true);
    // one plan, and only one, carries the Most Popular ribbon: the monthly Pro
    expect(first.filter((p) => p.mostPopular).map((p) => p.code)).toEqual(["pro-monthly"]);
    await expect(
      MembershipPlan.update({ mostPopular: true }, { where: { code: "premium-yearly" } }),
    ).rejects.toMatchObject({ name: "SequelizeUniqueConstraintError" });
    const trial = await Campaign.findOne({ where: { code: "welcome-trial" } });
    expect(trial).toMatchObject({ type: "membership_trial", active: true });
    expect(trial!.trialDays).toBeGreaterThan(0);
    expect(trial!.endDate.getTime()).toBeGreaterThan(Date.now());
    expect(await Campaign.count({ where: { code: "welcome-trial" } })).toBe(1);
  });
});

describe("membership calls", () => {
  it("GET /api/membership/plans lists the active plans with their public fields", async () => {
    const plan = await createTestPlan({ name: "Pro Test", vehicleLimit: null });
    const hidden = await createTestPlan({ name: "Retired", active: false });
    const response = await plansApi(get("/api/membership/plans"));
    const plans = (await response.json()) as Array<Record<string, unknown>>;
    const mine = plans.find((p) => p.id === plan.id);
    expect(mine).toEqual({
      id: plan.id,
      name: "Pro Test",
      description: "Test plan",
      price: "49.99",
      billingInterval: "monthly",
      vehicleLimit: null,
      featuredListings: 5,
      prioritySupport: true,
      advancedBuyerTools: true,
      sellerAnalytics: true,
      isFree: false,
      mostPopular: false,
    });
    expect(plans.find((p) => p.id === hidden.id)).toBeUndefined();
  });

  it("GET /api/campaigns/active lists only running campaigns", async () => {
    const running = await createTestCampaign();
    const inactive = await createTestCampaign({ active: false });
    const ended = await createTestCampaign({
      startsAt: new Date(Date.now() - 10 * DAY_MS),
      endDate: new Date(Date.now() - 1000),
    });
    const campaigns = (await (
      await activeCampaignsApi(get("/api/campaigns/active"))
    ).json()) as Array<{ id: string }>;
    const ids = campaigns.map((c) => c.id);
    expect(ids).toContain(running.id);
    expect(ids).not.toContain(inactive.id);
    expect(ids).not.toContain(ended.id);
    expect(campaigns.find((c) => c.id === running.id)).toEqual({
      id: running.id,
      type: "membership_trial",
      active: true,
      name: "Try it free",
      description: "A free trial",
      trialDays: 14,
      endDate: running.endDate.toISOString(),
    });
  });

  it("GET /api/user/membership answers the user's membership, 401 without a user", async () => {
    const user = await createTestUser();
    const empty = await userMembershipApi({
      request: await requestAs(user, "/api/user/membership"),
      params: {},
      context,
    });
    expect(await empty.json()).toEqual({
      hasActiveMembership: false,
      planId: null,
      planName: null,
      status: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      vehicleLimit: null,
      hasUsedTrial: false,
      trialEndsAt: null,
    });

    const plan = await createTestPlan({ name: "Pro", vehicleLimit: null });
    const campaign = await createTestCampaign();
    const trial = await startTrial(user.id, { planId: plan.id, campaignId: campaign.id });
    const response = await userMembershipApi({
      request: await requestAs(user, "/api/user/membership"),
      params: {},
      context,
    });
    expect(await response.json()).toEqual({
      hasActiveMembership: true,
      planId: plan.id,
      planName: "Pro",
      status: "trialing",
      currentPeriodEnd: trial.currentPeriodEnd.toISOString(),
      cancelAtPeriodEnd: false,
      vehicleLimit: null,
      hasUsedTrial: true,
      trialEndsAt: trial.currentPeriodEnd.toISOString(),
    });

    const anonymous = await userMembershipApi({
      request: await requestAs(null, "/api/user/membership"),
      params: {},
      context,
    }).catch((error: Response) => error);
    expect(anonymous.status).toBe(401);
  });
});
