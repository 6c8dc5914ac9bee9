import { describe, expect, it } from "vitest";
import { finderYears, formatMileage, formatPrice } from "~/services/listings/fields";
import { maxListingYear } from "~/services/listings/rules";
import {
  MISSING_INFORMATION,
  listingSchema,
  listingSearchSchema,
  normaliseListingJson,
} from "~/services/listings/schemas";

const VALID = {
  title: "Truck",
  make: "Ford",
  model: "F-150",
  year: "2015",
  price: "22000",
  condition: "fair",
  city: "Fresno",
};

describe("listing fields", () => {
  it("offers the current year and the 14 before it in the finder", () => {
    const years = finderYears(new Date("2026-11-22T00:00:00Z"));
    expect(years).toHaveLength(15);
    expect(years[0]).toBe(2026);
    expect(years[14]).toBe(2012);
    expect(maxListingYear(new Date("2026-01-01T00:00:00Z"))).toBe(2027);
  });

  it("formats prices in their own currency and mileage in miles", () => {
    expect(formatPrice("18500.00", "USD")).toBe("$18,500");
    expect(formatPrice("18500.50", "USD")).toBe("$18,500.50");
    expect(formatPrice("24000.00", "CAD")).toBe("CA$24,000");
    expect(formatPrice("350000.00", "MXN")).toBe("MX$350,000");
    expect(formatMileage(123456)).toBe("123,456 mi");
  });

  it("keeps prices as exact decimal strings", () => {
    const parse = (price: string) => listingSchema.parse({ ...VALID, price }).price;
    expect(parse("18,500.5")).toBe("18500.50");
    expect(parse("$0.01")).toBe("0.01");
    expect(parse("9999999.99")).toBe("9999999.99");
    expect(listingSchema.safeParse({ ...VALID, price: "1e5" }).success).toBe(false);
  });

  it("defaults currency and country and reports missing fields at form level", () => {
    expect(listingSchema.parse(VALID)).toMatchObject({ currency: "USD", country: "US" });
    const result = listingSchema.safeParse({ ...VALID, title: undefined, city: undefined });
    expect(result.success).toBe(false);
    const formLevel = result.error!.issues.filter((i) => i.path.length === 0);
    expect(formLevel.map((i) => i.message)).toEqual([MISSING_INFORMATION]);
  });

  it("brings JSON numbers and nulls to the form's shape", () => {
    expect(normaliseListingJson({ year: 2019, mileage: null, price: 100.5, title: "" })).toEqual({
      year: "2019",
      price: "100.5",
    });
    expect(normaliseListingJson([1, 2])).toEqual({});
  });

  it("reads search parameters, refusing unknown enum values", () => {
    expect(listingSearchSchema.parse({ yearMin: "2,015", priceMax: "$20,000" })).toMatchObject({
      yearMin: 2015,
      priceMax: "20000",
    });
    expect(listingSearchSchema.safeParse({ bodyType: "van" }).success).toBe(false);
    expect(listingSearchSchema.safeParse({ country: "FR" }).success).toBe(false);
  });
});
