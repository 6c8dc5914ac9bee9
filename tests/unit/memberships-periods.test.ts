import { describe, expect, it } from "vitest";
import {
  addDays,
  addMonths,
  firstPaidPeriod,
  periodEnd,
  planBenefits,
  planPriceLabel,
  renewalOpensAt,
  RENEWAL_WINDOW_DAYS,
  statusLabel,
} from "~/services/memberships/rules";
import { termsSentence } from "~/components/membership/plan-card";

describe("membership periods", () => {
  it("a monthly period ends one calendar month later, clamped to the month's end", () => {
    expect(periodEnd(new Date("2026-11-22T10:00:00Z"), "monthly").toISOString()).toBe(
      "2026-12-22T10:00:00.000Z",
    );
    expect(addMonths(new Date("2027-01-31T00:00:00Z"), 1).toISOString()).toBe(
      "2027-02-28T00:00:00.000Z",
    );
    expect(addMonths(new Date("2026-12-15T00:00:00Z"), 1).toISOString()).toBe(
      "2027-01-15T00:00:00.000Z",
    );
  });

  it("a yearly period ends one year later (Feb 29 → Feb 28)", () => {
    expect(periodEnd(new Date("2026-11-22T10:00:00Z"), "yearly").toISOString()).toBe(
      "2027-11-22T10:00:00.000Z",
    );
    expect(periodEnd(new Date("2028-02-29T00:00:00Z"), "yearly").toISOString()).toBe(
      "2029-02-28T00:00:00.000Z",
    );
  });

  it("a subscription paid during a trial starts its paid period when the trial ends", () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const trialEnds = new Date("2026-12-02T10:00:00Z");
    expect(firstPaidPeriod("monthly", now, trialEnds)).toEqual({
      start: trialEnds,
      end: new Date("2027-01-02T10:00:00Z"),
    });
    expect(firstPaidPeriod("yearly", now, trialEnds).end.toISOString()).toBe(
      "2027-12-02T10:00:00.000Z",
    );
    // no trial, or one already over: the period starts now
    expect(firstPaidPeriod("monthly", now, null)).toEqual({
      start: now,
      end: new Date("2026-12-22T10:00:00Z"),
    });
    expect(firstPaidPeriod("monthly", now, new Date("2026-11-01T00:00:00Z")).start).toBe(now);
  });

  it("a trial of n days ends n days later", () => {
    expect(addDays(new Date("2026-11-22T10:00:00Z"), 14).toISOString()).toBe(
      "2026-12-06T10:00:00.000Z",
    );
  });
});

describe("membership labels", () => {
  it("prices read $price/month or $price/year", () => {
    expect(planPriceLabel("49.99", "monthly")).toBe("$49.99/month");
    expect(planPriceLabel("499.00", "yearly")).toBe("$499/year");
    expect(planPriceLabel("1200.50", "yearly")).toBe("$1,200.50/year");
  });

  it("benefits are the plan's own: a paid plan's cap, features and what it lacks; the free tier's 3 in all", () => {
    const pro = {
      price: "49.99",
      vehicleLimit: null,
      featuredListings: 5,
      prioritySupport: true,
      advancedBuyerTools: true,
      sellerAnalytics: true,
    };
    expect(planBenefits(pro)).toEqual([
      { text: "Unlimited vehicle listings", included: true },
      { text: "5 featured listings per month", included: true },
      { text: "Priority support", included: true },
      { text: "Advanced buyer tools", included: true },
      { text: "Seller analytics", included: true },
    ]);
    const basic = { ...pro, price: "19.99", vehicleLimit: 10, featuredListings: 1 };
    expect(planBenefits({ ...basic, prioritySupport: false, sellerAnalytics: false })).toEqual([
      { text: "Up to 10 vehicle listings", included: true },
      { text: "1 featured listing per month", included: true },
      { text: "Advanced buyer tools", included: true },
      { text: "Seller analytics", included: false },
    ]);
    const free = {
      price: "0.00",
      vehicleLimit: 3,
      featuredListings: 0,
      prioritySupport: false,
      advancedBuyerTools: false,
      sellerAnalytics: false,
    };
    expect(planBenefits(free).map((line) => line.text)).toEqual([
      "Up to 3 vehicle listings in all",
      "Basic buyer tools",
      "Standard support",
    ]);
  });

  it("statuses are shown capitalised", () => {
    expect(statusLabel("trialing")).toBe("Trialing");
    expect(statusLabel("active")).toBe("Active");
  });

  it("renewing opens two weeks before the paid period ends", () => {
    expect(RENEWAL_WINDOW_DAYS).toBe(14);
    expect(renewalOpensAt(new Date("2027-01-10T06:00:00Z")).toISOString()).toBe(
      "2026-12-27T06:00:00.000Z",
    );
  });

  it("says when money moves: once, today, and nothing later by itself", () => {
    const terms = { start: "2026-12-10T18:00:00Z", end: "2027-01-10T18:00:00Z" };
    expect(termsSentence("19.99", { ...terms, keepsTrial: true }, "America/Chicago")).toBe(
      "Charged today: $19.99, once, for Dec 10, 2026 to Jan 10, 2027. Your free trial stays free until Dec 10, 2026. Nothing is charged automatically later.",
    );
    expect(termsSentence("19.99", { ...terms, keepsTrial: false }, "America/Chicago")).toBe(
      "Charged today: $19.99, once, for Dec 10, 2026 to Jan 10, 2027. Nothing is charged automatically later.",
    );
  });
});
