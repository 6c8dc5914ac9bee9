import { describe, expect, it } from "vitest";
import {
  paymentDueAt,
  allInCost,
  bandFee,
  highestBidWithin,
  lateFeeCents,
  storageCents,
  storageStartsAt,
  type FeeSchedules,
  type PurchaseTerms,
} from "~/services/purchases/fees";

const schedules: FeeSchedules = {
  buyer_clean: [
    { minCents: 0, maxCents: 100_000, feeCents: 10_000, percentBp: 0 },
    { minCents: 100_000, maxCents: null, feeCents: 0, percentBp: 1_000 },
  ],
  buyer_nonclean: [{ minCents: 0, maxCents: null, feeCents: 20_000, percentBp: 0 }],
  internet: [
    { minCents: 0, maxCents: 50_000, feeCents: 0, percentBp: 0 },
    { minCents: 50_000, maxCents: null, feeCents: 5_000, percentBp: 0 },
  ],
  gate: [{ minCents: 0, maxCents: null, feeCents: 7_900, percentBp: 0 }],
  broker: [{ minCents: 0, maxCents: null, feeCents: 24_900, percentBp: 0 }],
};
const terms: PurchaseTerms = {
  dueBusinessDays: 3,
  lateFeeCents: 5_000,
  storageFreeDays: 3,
  storagePerDayCents: 2_500,
  defaultGraceDays: 2,
  defaultFeeCents: 40_000,
};

describe("the fee module", () => {
  it("picks the band by price, with its percentage, in whole cents", () => {
    expect(bandFee(schedules.buyer_clean, 99_999)).toBe(10_000);
    expect(bandFee(schedules.buyer_clean, 100_000)).toBe(10_000);
    expect(bandFee(schedules.buyer_clean, 123_455)).toBe(12_346);
  });

  it("clean and non-clean titles use their own schedule; every line adds up", () => {
    const clean = allInCost(schedules, 60_000, "clean");
    expect(clean.lines.map((l) => l.cents)).toEqual([60_000, 10_000, 5_000, 7_900, 24_900]);
    expect(clean.totalCents).toBe(107_800);
    expect(allInCost(schedules, 60_000, "salvage").lines[1].cents).toBe(20_000);
    expect(allInCost(schedules, 60_000, "clean", 45_000).totalCents).toBe(152_800);
  });

  it("the highest bid within a budget is exact to the dollar", () => {
    const bid = highestBidWithin(schedules, 300_000, "clean")!;
    expect(allInCost(schedules, bid, "clean").totalCents).toBeLessThanOrEqual(300_000);
    expect(allInCost(schedules, bid + 100, "clean").totalCents).toBeGreaterThan(300_000);
    expect(highestBidWithin(schedules, 10_000, "clean")).toBeNull();
  });

  it("due dates skip weekends; late fee after the due date; storage after the free days", () => {
    // sold Friday Nov 20 in Dallas: due Wednesday Nov 25 at the yard's 5 PM (CST = 23:00 UTC)
    expect(paymentDueAt(new Date("2026-11-20T12:00:00Z"), 3, "TX").toISOString()).toBe(
      "2026-11-25T23:00:00.000Z",
    );
    // sold Friday 7 PM in Los Angeles (Saturday in UTC): the yard's own day counts
    expect(paymentDueAt(new Date("2026-11-21T03:00:00Z"), 1, "CA").toISOString()).toBe(
      "2026-11-24T01:00:00.000Z",
    );
    const due = new Date("2026-11-25T12:00:00Z");
    expect(lateFeeCents(terms, due, new Date("2026-11-25T12:00:00Z"))).toBe(0);
    expect(lateFeeCents(terms, due, new Date("2026-11-25T12:00:01Z"))).toBe(5_000);
  });
});

describe("free storage counts yard days (record 3511)", () => {
  it("paid on Saturday at 6:23 AM: free to the yard's close on Wednesday, three pickup days", () => {
    // Saturday Nov 28, 2026, 6:23 AM in Dallas (CST, UTC-6): Monday, Tuesday and Wednesday count
    const paid = new Date("2026-11-28T12:23:00Z");
    const end = "2026-12-02T23:00:00.000Z"; // Wednesday Dec 2, 5 PM CST
    expect(storageStartsAt(terms, paid, "TX").toISOString()).toBe(end);
    // not charged on Tuesday morning, as three clock days from payment would have had it
    expect(storageCents(terms, paid, new Date("2026-12-01T12:24:00Z"), "TX")).toBe(0);
    expect(storageCents(terms, paid, new Date(end), "TX")).toBe(0);
    expect(storageCents(terms, paid, new Date("2026-12-02T23:00:01Z"), "TX")).toBe(2_500);
    expect(storageCents(terms, paid, new Date("2026-12-04T23:00:00Z"), "TX")).toBe(5_000);
  });

  it("a holiday does not count: paid the day before Thanksgiving, free to Tuesday's close", () => {
    // Wednesday Nov 25, 2026, 6 AM CST; Thursday Nov 26 is Thanksgiving: Friday, Monday, Tuesday
    const paid = new Date("2026-11-25T12:00:00Z");
    expect(storageStartsAt(terms, paid, "TX").toISOString()).toBe("2026-12-01T23:00:00.000Z");
    expect(storageCents(terms, paid, new Date("2026-11-28T13:00:00Z"), "TX")).toBe(0);
    expect(storageCents(terms, paid, new Date("2026-12-02T12:00:00Z"), "TX")).toBe(2_500);
  });

  it("on the yard's own clock: a Los Angeles yard closes at 5 PM Pacific", () => {
    const paid = new Date("2026-11-28T14:23:00Z"); // Saturday 6:23 AM PST
    expect(storageStartsAt(terms, paid, "CA").toISOString()).toBe("2026-12-03T01:00:00.000Z");
  });

  it("no free days: storage runs from payment", () => {
    const paid = new Date("2026-11-28T12:23:00Z");
    const none = { ...terms, storageFreeDays: 0 };
    expect(storageStartsAt(none, paid, "TX")).toEqual(paid);
    expect(storageCents(none, paid, new Date("2026-11-28T12:23:01Z"), "TX")).toBe(2_500);
  });
});
