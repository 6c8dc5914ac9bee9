import { describe, expect, it } from "vitest";
import { isUrgent, lotBadge } from "~/services/auctions/rules";
import { centsToDecimal, formatUsd, parseCents } from "~/utils/money";
import { bidFormSchema } from "~/services/auctions/schemas";

describe("lotBadge", () => {
  const lot = {
    status: "active",
    startsAt: "2030-01-01T10:00:00Z",
    endsAt: "2030-01-01T14:00:00Z",
  };
  it("follows the server clock", () => {
    expect(lotBadge(lot, new Date("2030-01-01T09:59:59Z"))).toBe("STARTING SOON");
    expect(lotBadge(lot, new Date("2030-01-01T10:00:00Z"))).toBe("LIVE");
    expect(lotBadge(lot, new Date("2030-01-01T12:59:59Z"))).toBe("LIVE");
    expect(lotBadge(lot, new Date("2030-01-01T13:00:00Z"))).toBe("ENDING SOON");
    // of the hour's ENDING SOON lots only the last ten minutes wear red (record 3553)
    expect(isUrgent(lot.endsAt, new Date("2030-01-01T13:49:59Z"))).toBe(false);
    expect(isUrgent(lot.endsAt, new Date("2030-01-01T13:50:00Z"))).toBe(true);
    expect(isUrgent(lot.endsAt, new Date("2030-01-01T14:00:00Z"))).toBe(false);
    // past its end but not closed yet: closing, until its close job has run
    expect(lotBadge(lot, new Date("2030-01-01T14:00:00Z"))).toBe("CLOSING");
    expect(lotBadge({ ...lot, status: "sold" }, new Date("2030-01-01T11:00:00Z"))).toBe("ENDED");
  });
});

describe("money", () => {
  it("parses dollars with at most two decimals into cents", () => {
    expect(parseCents("1050.5")).toBe(105050);
    expect(parseCents("$1,050.05")).toBe(105005);
    expect(parseCents("50")).toBe(5000);
    expect(parseCents("10.001")).toBeNull();
    expect(parseCents("-5")).toBeNull();
    expect(parseCents("1e3")).toBeNull();
    expect(centsToDecimal(105005)).toBe("1050.05");
    expect(formatUsd(105005, "cents")).toBe("$1,050.05");
  });

  it("says amounts as Intl's en-US currency format does, written by hand (record 3570)", () => {
    const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    const cents = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 99999, 100000, 105005, 123456789];
    for (let c = 7; c < 1e15; c = c * 13 + 11) cents.push(c);
    for (const c of [...cents, ...cents.map((x) => -x).filter((x) => x !== 0)]) {
      expect(formatUsd(c, "cents")).toBe(intl.format(c / 100));
      // amounts in dollars are read with at most ten whole digits (parseCents)
      if (Math.abs(c) < 1e12) expect(formatUsd(centsToDecimal(c))).toBe(intl.format(c / 100));
    }
    expect(formatUsd("-12.30")).toBe("-$12.30");
    expect(formatUsd(" 2500 ")).toBe("$2,500.00");
    expect(formatUsd("not an amount")).toBe("$0.00");
    expect(formatUsd(Number.NaN, "cents")).toBe("$0.00");
  });
});

describe("the bid form schema (browser side)", () => {
  const limits = { minCents: 15000, availableCents: 100000, minLabel: "$150.00" };
  const errors = (input: Record<string, string>) => {
    const result = bidFormSchema(limits).safeParse(input);
    return result.success
      ? {}
      : Object.fromEntries(result.error.issues.map((i) => [i.path[0], i.message]));
  };
  it("uses the spec's messages", () => {
    expect(errors({ amount: "149.99" })).toEqual({ amount: "Invalid Bid: Minimum bid is $150.00" });
    expect(errors({ amount: "1000.01" })).toEqual({
      amount: "Insufficient Funds: Bid amount exceeds your available deposit.",
    });
    expect(errors({ amount: "200", isProxyBid: "on", maxAmount: "200" })).toEqual({
      maxAmount: "Invalid Proxy Bid: Maximum proxy bid must be higher than initial bid.",
    });
    expect(errors({ amount: "200", isProxyBid: "on", maxAmount: "1000.01" })).toEqual({
      maxAmount: "Insufficient Funds: Bid amount exceeds your available deposit.",
    });
    expect(errors({ amount: "200", isProxyBid: "on", maxAmount: "999" })).toEqual({});
  });
  it("names the empty maximum when Proxy bid is ticked (record 3541)", () => {
    expect(errors({ amount: "200", isProxyBid: "on", maxAmount: "" })).toEqual({
      maxAmount: "Maximum proxy bid is empty: enter the most you will bid, or untick Proxy bid.",
    });
    expect(errors({ amount: "200", isProxyBid: "on" })).toEqual({
      maxAmount: "Maximum proxy bid is empty: enter the most you will bid, or untick Proxy bid.",
    });
  });
  it("uses a maximum typed with Proxy bid unticked (record 3541)", () => {
    const parsed = bidFormSchema(limits).parse({ amount: "350", maxAmount: "700" });
    expect(parsed).toMatchObject({ isProxyBid: true, maxAmount: "700" });
    expect(bidFormSchema(limits).parse({ amount: "350", maxAmount: " " })).toMatchObject({
      isProxyBid: false,
    });
    expect(errors({ amount: "400", maxAmount: "380" })).toEqual({
      maxAmount:
        "Invalid Proxy Bid: Maximum proxy bid must be higher than initial bid. Leave it empty for a single bid.",
    });
  });
});
