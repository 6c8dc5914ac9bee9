// The value model against used-market prices, and the catalogue rules against the examples a
// buyer would not believe (docs/decisions/2853); the VIN's body and fuel in a listing's terms.
import { describe, expect, it } from "vitest";
import { retailValue } from "~/services/vehicles/valuation";
import { bodyTypeFromVin, fuelTypeFromVin } from "~/services/listings/vin-fill";
import { listingProblems, lotCombos, lotProblems } from "../../db/seeds/believable";

describe("the value model", () => {
  // Private-party prices of average cars in good condition on the mid-2020s used market, as the
  // price guides give them, to within a fifth: the model must land inside these ranges.
  it.each([
    ["2019 Honda Civic, 84,000 mi", 20_500, "economy", 7, 84_000, 11_000, 17_000],
    ["2016 Honda Civic, 120,000 mi", 20_500, "economy", 10, 120_000, 9_000, 14_000],
    ["2021 GMC Terrain, 60,000 mi", 27_500, "compact_suv", 5, 60_000, 14_000, 21_000],
    ["2013 Toyota Camry, 160,000 mi", 23_500, "midsize", 13, 160_000, 7_000, 12_000],
    ["2016 Ford F-150, 120,000 mi", 43_000, "pickup", 10, 120_000, 17_000, 27_000],
    ["2019 Tesla Model 3, 84,000 mi", 42_000, "ev", 7, 84_000, 15_000, 25_000],
    ["2018 BMW X3, 96,000 mi", 43_000, "luxury", 8, 96_000, 14_000, 22_000],
  ] as const)("%s", (_, msrp, segment, age, mileage, low, high) => {
    const value = retailValue({ msrp, segment, age, mileage });
    expect(value).toBeGreaterThanOrEqual(low);
    expect(value).toBeLessThanOrEqual(high);
  });
});

const lot = {
  lot: "lot",
  year: 2019,
  odometer: 61_200,
  primaryDamage: "FRONT END",
  secondaryDamage: null,
  damageType: "collision",
  titleType: "salvage",
  runsDrives: true,
  estimatedValue: 14_000,
  repairCost: 5_000,
  status: "sold",
  soldPrice: 4_000,
};

describe("a believable lot", () => {
  it("passes a front-end salvage Civic that runs, sold near its value", () => {
    expect(lotProblems(lot, 2026)).toEqual([]);
  });

  it("catches normal wear with a junk title marked runs, and a runner given away", () => {
    expect(
      lotProblems(
        { ...lot, primaryDamage: "NORMAL WEAR", damageType: "other", titleType: "parts_only" },
        2026,
      ),
    ).toEqual([
      "lot: NORMAL WEAR damage with a parts_only title",
      "lot: a parts_only title marked runs and drives",
    ]);
    expect(
      lotProblems(
        {
          ...lot,
          primaryDamage: "NORMAL WEAR",
          damageType: "other",
          titleType: "certificate_of_destruction",
          runsDrives: false,
        },
        2026,
      )[0],
    ).toBe("lot: NORMAL WEAR damage with a certificate_of_destruction title");
    expect(lotProblems({ ...lot, soldPrice: 450 }, 2026)).toEqual([
      expect.stringContaining("lot: sold for 450 where"),
      "lot: a runner worth 14000 sold for 450",
    ]);
  });

  it("the generator's combinations all keep the rules", () => {
    for (const combo of lotCombos()) {
      const problems = lotProblems(
        {
          ...lot,
          primaryDamage: combo.damage,
          damageType: combo.type,
          titleType: combo.title,
          runsDrives: combo.runs,
          status: "active",
          soldPrice: null,
        },
        2026,
      );
      expect(problems, JSON.stringify(combo)).toEqual([]);
    }
  });
});

describe("a believable listing", () => {
  const listing = {
    listing: "listing",
    title: "2021 GMC Terrain · One owner",
    description: "Gray 2021 GMC Terrain, in good condition.",
    year: 2021,
    mileage: 60_000,
    condition: "good" as const,
    priceUsd: 18_000,
  };
  const model = { retail: 18_000 };

  it('catches "Runs great" on a poor car and "Low miles" on 94,800', () => {
    expect(listingProblems(listing, 2026, model)).toEqual([]);
    expect(
      listingProblems(
        { ...listing, title: "2021 GMC Terrain · Runs great", condition: "poor", priceUsd: 11_700 },
        2026,
        model,
      ),
    ).toEqual(['listing: "Runs great" on a poor 2021 with 60000 miles']);
    expect(
      listingProblems(
        { ...listing, title: "2016 Honda Civic · Low miles", year: 2016, mileage: 94_800 },
        2026,
      ),
    ).toEqual(['listing: "Low miles" on a good 2016 with 94800 miles']);
  });

  it("catches a price far from what the car is worth for its condition", () => {
    expect(listingProblems({ ...listing, priceUsd: 7_550 }, 2026, model)).toEqual([
      expect.stringContaining("asking US$7550 for a good 2021"),
    ]);
  });
});

describe("a VIN's body and fuel as a listing's", () => {
  it("maps vPIC's wording to the listing's choices", () => {
    expect(bodyTypeFromVin("Sport Utility Vehicle (SUV)/Multi-Purpose Vehicle (MPV)")).toBe("suv");
    expect(bodyTypeFromVin("SUV")).toBe("suv");
    expect(bodyTypeFromVin("Sedan/Saloon")).toBe("sedan");
    expect(bodyTypeFromVin("Pickup")).toBe("truck");
    expect(bodyTypeFromVin("Hatchback/Liftback/Notchback")).toBe("hatchback");
    expect(bodyTypeFromVin("Convertible/Cabriolet")).toBe("convertible");
    expect(bodyTypeFromVin("Coupe")).toBe("coupe");
    expect(bodyTypeFromVin("Wagon")).toBe("suv");
    expect(bodyTypeFromVin("Minivan")).toBeNull();
    expect(bodyTypeFromVin(null)).toBeNull();
    expect(fuelTypeFromVin("Gasoline")).toBe("gasoline");
    expect(fuelTypeFromVin("Flexible Fuel Vehicle (FFV)")).toBe("gasoline");
    expect(fuelTypeFromVin("Electric")).toBe("electric");
    expect(fuelTypeFromVin("Hybrid")).toBe("hybrid");
    expect(fuelTypeFromVin("Diesel")).toBe("diesel");
    expect(fuelTypeFromVin(null)).toBeNull();
  });
});
