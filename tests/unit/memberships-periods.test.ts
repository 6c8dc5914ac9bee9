import { describe, expect, it } from "vitest";
import {
  addDays,
  addMonths,
  isMostPopular,
  periodEnd,
  planPriceLabel,
  statusLabel,
} from "~/services/memberships/rules";

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

  it("pro or premium in the name earns the Most Popular ribbon", () => {
    expect(isMostPopular("Pro")).toBe(true);
    expect(isMostPopular("Premium Yearly")).toBe(true);
    expect(isMostPopular("Basic")).toBe(false);
  });

  it("statuses are shown capitalised", () => {
    expect(statusLabel("trialing")).toBe("Trialing");
    expect(statusLabel("active")).toBe("Active");
  });
});
