// A number past its limit says the limit, never "a whole number", "at most 2 decimals" or
// "Enter a bid like 2500" (docs/decisions/2801). One check per number field a person can type.
import { describe, expect, it } from "vitest";
import {
  AdminServiceOrderSchema,
  AffiliateApplicationFormSchema,
  isPhoneNumber,
} from "~/services/affiliates/schemas";
import { bidFormSchema } from "~/services/auctions/schemas";
import { depositAmount, refundAmount } from "~/services/deposits/schemas";
import {
  exchangeRateSchema,
  listingSchema,
  listingSearchSchema,
} from "~/services/listings/schemas";
import { estimateSchema, scheduleSchema, termsSchema } from "~/services/purchases/schemas";
import { readTypedAmount } from "~/utils/money";

const LISTING = {
  title: "Truck",
  make: "Ford",
  model: "F-150",
  year: "2015",
  price: "22000",
  condition: "fair",
  city: "Fresno",
};

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  expect(result.success).toBe(false);
  return result.error!.issues[0].message;
}

function fieldMessage(
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
  field: string,
) {
  expect(result.success).toBe(false);
  return result.error!.issues.find((issue) => issue.path[0] === field)?.message;
}

describe("typed amounts", () => {
  it("reads any number of digits, so a size can be told from a typo", () => {
    expect(readTypedAmount("$1,050.5")).toEqual({ cents: 105050 });
    expect(readTypedAmount("99999999999")).toEqual({ cents: 9999999999900 });
    expect(readTypedAmount("99999999999999")).toEqual({ cents: Infinity });
    expect(readTypedAmount("1.234")).toEqual({ problem: "decimals" });
    expect(readTypedAmount("abc")).toEqual({ problem: "format" });
    expect(readTypedAmount("-5")).toEqual({ problem: "format" });
  });
});

describe("listing price and mileage", () => {
  const price = (value: string) =>
    fieldMessage(listingSchema.safeParse({ ...LISTING, price: value }), "price");
  const mileage = (value: string) =>
    fieldMessage(listingSchema.safeParse({ ...LISTING, mileage: value }), "mileage");

  it("a price past the limit says the limit", () => {
    expect(price("99999999999999")).toBe("Price must be at most 10,000,000");
    expect(price("10000000.01")).toBe("Price must be at most 10,000,000");
    expect(listingSchema.parse({ ...LISTING, price: "10000000" }).price).toBe("10000000.00");
  });

  it("decimals and typos keep their own messages", () => {
    expect(price("18500.505")).toBe("Use at most 2 decimals, like 18500.50");
    expect(price("lots")).toBe("Enter a price like 18500 or 18500.50");
  });

  it("a mileage past the limit says the limit", () => {
    expect(mileage("99999999999")).toBe("Mileage must be at most 2,000,000 miles");
    expect(mileage("2000001")).toBe("Mileage must be at most 2,000,000 miles");
    expect(mileage("12.5")).toBe("Mileage must be a whole number of miles");
    expect(listingSchema.parse({ ...LISTING, mileage: "2000000" }).mileage).toBe(2_000_000);
  });

  it("a price filter past the limit says the limit", () => {
    expect(firstMessage(listingSearchSchema.safeParse({ priceMax: "99999999999" }))).toBe(
      "enter at most 10,000,000",
    );
  });
});

describe("bids and the all-in estimate", () => {
  it("a bid past the limit says the limit", () => {
    const result = bidFormSchema().safeParse({ amount: "99999999999", isProxyBid: "" });
    expect(fieldMessage(result, "amount")).toBe("Invalid Bid: A bid is at most $10,000,000.00.");
    const max = bidFormSchema().safeParse({
      amount: "500",
      isProxyBid: "on",
      maxAmount: "99999999999",
    });
    expect(fieldMessage(max, "maxAmount")).toBe("Invalid Bid: A bid is at most $10,000,000.00.");
  });

  it("the estimate's If I win at and budget say the limit", () => {
    expect(firstMessage(estimateSchema.safeParse({ bid: "99999999999" }))).toBe(
      "A bid: at most $10,000,000.00",
    );
    expect(firstMessage(estimateSchema.safeParse({ budget: "99999999999" }))).toBe(
      "The most you will pay: at most $10,000,000.00",
    );
    expect(firstMessage(estimateSchema.safeParse({ bid: "abc" }))).toBe("Enter a bid like 2500.");
  });
});

describe("deposits", () => {
  it("a negative amount says the minimum", () => {
    expect(firstMessage(depositAmount.safeParse("-5"))).toBe("Minimum deposit is $400.");
    expect(firstMessage(refundAmount.safeParse("-5"))).toBe("Enter an amount above $0.00.");
  });
});

describe("admin numbers", () => {
  it("a payout past the limit says the limit", () => {
    const result = AdminServiceOrderSchema.safeParse({
      serviceType: "shipping",
      vehicleLabel: "2019 Toyota Camry",
      pickup: "Dallas, TX",
      delivery: "Houston, TX",
      payout: "1000000",
    });
    expect(fieldMessage(result, "payout")).toBe("At most $100,000");
  });

  it("fee percent and payment terms say their limits", () => {
    const schedule = scheduleSchema.safeParse({
      intent: "schedule",
      schedule: "buyer_clean",
      min: ["0"],
      fee: ["10"],
      percent: ["1000"],
    });
    expect(firstMessage(schedule)).toBe("Row 1: At most 100 %");
    const terms = termsSchema.safeParse({
      intent: "terms",
      dueBusinessDays: "99999999999",
      lateFee: "50",
      storageFreeDays: "3",
      storagePerDay: "25",
      defaultGraceDays: "5",
      defaultFee: "250",
    });
    expect(fieldMessage(terms, "dueBusinessDays")).toBe("Due business days: at most 30");
    const fee = termsSchema.safeParse({
      intent: "terms",
      dueBusinessDays: "3",
      lateFee: "99999999999",
      storageFreeDays: "3",
      storagePerDay: "25",
      defaultGraceDays: "5",
      defaultFee: "250",
    });
    expect(fieldMessage(fee, "lateFee")).toBe("Late fee: at most $100,000.00");
  });

  it("an exchange rate says its limits", () => {
    const rate = (perUsd: string) =>
      fieldMessage(
        exchangeRateSchema.safeParse({ currency: "MXN", perUsd, asOf: "2026-11-20" }),
        "perUsd",
      );
    expect(rate("99999999999")).toBe("A rate is at most 100,000");
    expect(rate("1.1234567")).toBe("Use at most 6 decimals");
    expect(rate("0")).toBe("A rate is more than 0");
    expect(
      fieldMessage(
        exchangeRateSchema.safeParse({ currency: "MXN", perUsd: "19.5", asOf: "2026-02-30" }),
        "asOf",
      ),
    ).toBe("Enter a real date, like 2026-11-20");
  });
});

describe("provider application phone", () => {
  it("takes phone numbers as people write them and refuses words", () => {
    for (const phone of ["214-555-0100", "(214) 555-0100", "+44 20 7946 0958", "214.555.0100 x12"])
      expect(isPhoneNumber(phone), phone).toBe(true);
    for (const phone of ["call me maybe 😀", "12345", "1-800-FLOWERS", "++1"])
      expect(isPhoneNumber(phone), phone).toBe(false);
    const result = AffiliateApplicationFormSchema.safeParse({
      companyName: "Lone Star Transport",
      serviceTypes: ["shipping"],
      businessPhone: "call me maybe 😀",
      businessEmail: "ops@lonestar.test",
      serviceAreas: "Texas",
      agreeToTerms: "on",
    });
    expect(fieldMessage(result, "businessPhone")).toBe("Enter a phone number, like 214-555-0100");
  });

  it("a document that failed or is still uploading holds the application back", () => {
    const base = {
      companyName: "Lone Star Transport",
      serviceTypes: ["shipping"],
      businessPhone: "214-555-0100",
      businessEmail: "ops@lonestar.test",
      serviceAreas: "Texas",
      agreeToTerms: "on",
    };
    expect(AffiliateApplicationFormSchema.safeParse(base).success).toBe(true);
    expect(
      fieldMessage(
        AffiliateApplicationFormSchema.safeParse({ ...base, licenseDocumentState: "failed" }),
        "licenseDocumentState",
      ),
    ).toMatch(/did not upload/);
    expect(
      fieldMessage(
        AffiliateApplicationFormSchema.safeParse({ ...base, licenseDocumentState: "uploading" }),
        "licenseDocumentState",
      ),
    ).toMatch(/finish uploading/);
  });
});
