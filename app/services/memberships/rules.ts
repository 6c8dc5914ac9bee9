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

/** A plan whose name contains pro or premium gets the Most Popular ribbon. */
export function isMostPopular(name: string): boolean {
  return /pro|premium/i.test(name);
}

/** "trialing" → "Trialing". */
export function statusLabel(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}
