import { describe, expect, it } from "vitest";
import { formatUsd, fromCents, toCents } from "~/utils/money";
import { createDepositOrderSchema, depositAmount, refundAmount } from "~/services/deposits/schemas";

describe("money in cents", () => {
  it("round-trips decimal strings without floats", () => {
    expect(toCents("0.1")).toBe(10);
    expect(toCents("1000.05")).toBe(100005);
    expect(toCents("-12.3")).toBe(-1230);
    expect(fromCents(100005)).toBe("1000.05");
    expect(fromCents(-5)).toBe("-0.05");
    expect(formatUsd("2500.00")).toBe("$2,500.00");
    expect(() => toCents("1.234")).toThrow();
  });
});

describe("deposit amount", () => {
  it("normalises what people type", () => {
    expect(depositAmount.parse("400")).toBe("400.00");
    expect(depositAmount.parse(" $1,000.5 ")).toBe("1000.50");
    expect(depositAmount.parse("100000")).toBe("100000.00");
  });

  it.each([
    ["399.99", "Minimum deposit is $400."],
    ["0", "Minimum deposit is $400."],
    ["abc", "Enter an amount in dollars, like 400.00."],
    ["Infinity", "Enter an amount in dollars, like 400.00."],
    ["400.001", "Use at most two decimal places."],
    ["100000.01", "The most you can deposit at once is $100,000.00."],
    ["1".repeat(25), "The most you can deposit at once is $100,000.00."],
  ])("refuses %j: %s", (input, message) => {
    const result = depositAmount.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe(message);
  });

  it("the JSON order call takes a number or a string, USD and CAPTURE only", () => {
    expect(createDepositOrderSchema.parse({ amount: 1000 })).toEqual({
      amount: "1000.00",
      currency: "USD",
      intent: "CAPTURE",
    });
    expect(createDepositOrderSchema.safeParse({ amount: "1000", currency: "EUR" }).success).toBe(
      false,
    );
  });

  it("a refund is above zero", () => {
    expect(refundAmount.safeParse("0").success).toBe(false);
    expect(refundAmount.parse("0.01")).toBe("0.01");
  });
});
