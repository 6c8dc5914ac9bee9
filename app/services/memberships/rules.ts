// Membership vocabulary and period arithmetic, shared by the server and the browser.

export const BILLING_INTERVALS = ["monthly", "yearly"] as const;
export const CAMPAIGN_TYPES = ["membership_trial"] as const;
export const MEMBERSHIP_STATUSES = ["trialing", "active"] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

const DAY_MS = 24 * 60 * 60 * 1000;

/** `months` calendar months after `from` in UTC, clamped to the month's last day (Jan 31 → Feb 28). */
export function addMonths(from: Date, months: number): Date {
  const target = new Date(from.getTime());
  const day = from.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

/** The end of one billing period that starts at `from`: +1 month or +1 year. */
export function periodEnd(from: Date, interval: BillingInterval): Date {
  return addMonths(from, interval === "yearly" ? 12 : 1);
}

export function addDays(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

/** A plan's price as the plan cards show it: '$49.99/month' or '$499/year'. */
export function planPriceLabel(price: string, interval: BillingInterval): string {
  const cents = Math.round(Number(price) * 100);
  const amount = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
  }).format(cents / 100);
  return `${amount}/${interval === "yearly" ? "year" : "month"}`;
}

/**
 * The first paid period of a subscription paid at `now`. During a trial it starts when the trial
 * ends, so the trial's remaining days are kept; otherwise it starts now (docs/decisions/2851).
 * The page's notice before paying and the purchase once captured both come from here.
 */
export function firstPaidPeriod(
  interval: BillingInterval,
  now: Date,
  trialEndsAt: Date | null,
): { start: Date; end: Date } {
  const start = trialEndsAt && trialEndsAt.getTime() > now.getTime() ? trialEndsAt : now;
  return { start, end: periodEnd(start, interval) };
}

export type PlanFeatures = {
  price: string;
  vehicleLimit: number | null;
  featuredListings: number;
  prioritySupport: boolean;
  advancedBuyerTools: boolean;
  sellerAnalytics: boolean;
};

/**
 * What a plan gives, as the plan cards and the member's own benefits list it. `included: false`
 * lines are shown struck through on the cards. The free tier's listings are 3 in all, a paid
 * plan's a cap on active listings.
 */
export function planBenefits(plan: PlanFeatures): Array<{ text: string; included: boolean }> {
  const free = Number(plan.price) === 0;
  const lines = [
    {
      text:
        plan.vehicleLimit === null
          ? "Unlimited vehicle listings"
          : `Up to ${plan.vehicleLimit} vehicle listings${free ? " in all" : ""}`,
      included: true,
    },
  ];
  if (plan.featuredListings > 0)
    lines.push({
      text: `${plan.featuredListings} featured ${plan.featuredListings === 1 ? "listing" : "listings"} per month`,
      included: true,
    });
  if (plan.prioritySupport) lines.push({ text: "Priority support", included: true });
  if (free) {
    lines.push({ text: "Basic buyer tools", included: true });
    lines.push({ text: "Standard support", included: true });
    return lines;
  }
  lines.push({ text: "Advanced buyer tools", included: plan.advancedBuyerTools });
  lines.push({ text: "Seller analytics", included: plan.sellerAnalytics });
  return lines;
}

/** "trialing" → "Trialing". */
export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/** Renew Now is offered from this many days before the paid period ends (record 3321). */
export const RENEWAL_WINDOW_DAYS = 14;

/** The day from which a paid period can be renewed. */
export function renewalOpensAt(periodEnd: Date): Date {
  return addDays(periodEnd, -RENEWAL_WINDOW_DAYS);
}
