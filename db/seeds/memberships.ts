import type { InferCreationAttributes } from "sequelize";
import { Campaign, MembershipPlan } from "../../app/models/membership.server";
import { FREE_LISTINGS } from "../../app/services/listings/rules";
import type { SeedOptions } from "./index";

type SeedPlan = Omit<
  InferCreationAttributes<MembershipPlan>,
  "id" | "active" | "createdAt" | "updatedAt"
>;

export const DEMO_PLANS: SeedPlan[] = [
  {
    code: "free",
    name: "Free",
    description: "Everything you need to post a few vehicles and start bidding.",
    price: "0.00",
    billingInterval: "monthly",
    // The free tier's row mirrors the rule: non-members post FREE_LISTINGS in all.
    vehicleLimit: FREE_LISTINGS,
    featuredListings: 0,
    prioritySupport: false,
    advancedBuyerTools: false,
    sellerAnalytics: false,
    mostPopular: false,
    sortOrder: 0,
  },
  {
    code: "basic-monthly",
    name: "Basic",
    description: "For occasional sellers who list a handful of vehicles at a time.",
    price: "19.99",
    billingInterval: "monthly",
    vehicleLimit: 10,
    featuredListings: 1,
    prioritySupport: false,
    advancedBuyerTools: true,
    sellerAnalytics: false,
    mostPopular: false,
    sortOrder: 10,
  },
  {
    code: "pro-monthly",
    name: "Pro",
    description: "Unlimited listings and the full toolkit for active buyers and sellers.",
    price: "49.99",
    billingInterval: "monthly",
    vehicleLimit: null,
    featuredListings: 5,
    prioritySupport: true,
    advancedBuyerTools: true,
    sellerAnalytics: true,
    // the one plan with the ribbon (docs/decisions/2851)
    mostPopular: true,
    sortOrder: 20,
  },
  {
    code: "premium-yearly",
    name: "Premium Yearly",
    description: "Everything in Pro, billed once a year: two months free.",
    price: "499.00",
    billingInterval: "yearly",
    vehicleLimit: null,
    featuredListings: 10,
    prioritySupport: true,
    advancedBuyerTools: true,
    sellerAnalytics: true,
    mostPopular: false,
    sortOrder: 30,
  },
];

export const DEMO_TRIAL_CAMPAIGN = {
  code: "welcome-trial",
  type: "membership_trial" as const,
  name: "Launch Offer: Try Any Plan Free",
  description: "Start any paid plan with a free trial. No payment needed; cancel any time.",
  trialDays: 14,
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** Inserts what is missing, by code; never overwrites plans or campaigns edited since. */
export async function seedMemberships(_options: SeedOptions) {
  for (const plan of DEMO_PLANS) {
    const existing = await MembershipPlan.findOne({ where: { code: plan.code } });
    if (!existing) await MembershipPlan.create(plan);
  }
  const campaign = await Campaign.findOne({ where: { code: DEMO_TRIAL_CAMPAIGN.code } });
  if (!campaign) {
    await Campaign.create({
      ...DEMO_TRIAL_CAMPAIGN,
      active: true,
      endDate: new Date(Date.now() + 90 * DAY_MS),
    });
  }
}
