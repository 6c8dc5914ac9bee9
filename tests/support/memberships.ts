// Arranges plans and campaigns for membership integration tests, and reads flash toasts.
import { randomUUID } from "node:crypto";
import { Campaign, MembershipPlan } from "~/models/membership.server";
import { toastCookie, type FlashToast } from "~/http/cookies.server";

let counter = 0;
const code = (prefix: string) => `${prefix}-${++counter}-${randomUUID().slice(0, 8)}`;

export async function createTestPlan(
  overrides: Partial<Parameters<typeof MembershipPlan.create>[0]> = {},
) {
  return MembershipPlan.create({
    code: code("plan"),
    name: "Pro",
    description: "Test plan",
    price: "49.99",
    billingInterval: "monthly",
    vehicleLimit: null,
    featuredListings: 5,
    prioritySupport: true,
    advancedBuyerTools: true,
    sellerAnalytics: true,
    ...overrides,
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

export async function createTestCampaign(
  overrides: Partial<Parameters<typeof Campaign.create>[0]> = {},
) {
  return Campaign.create({
    code: code("campaign"),
    type: "membership_trial",
    name: "Try it free",
    description: "A free trial",
    trialDays: 14,
    active: true,
    startsAt: new Date(Date.now() - DAY_MS),
    endDate: new Date(Date.now() + 30 * DAY_MS),
    ...overrides,
  });
}

/** The flash toast a response sets, decoded. */
export async function toastOf(response: Response): Promise<FlashToast | null> {
  const header = response.headers.get("set-cookie") ?? "";
  const pair = header.split(/,(?=\s*__)/).find((c) => c.trim().startsWith("__toast="));
  if (!pair) return null;
  return (await toastCookie.parse(pair.split(";")[0].trim())) as FlashToast | null;
}
