import { describe, expect, it } from "vitest";
import {
  EXPORT_PORTS,
  findCity,
  findCityByLabel,
  US_CITIES,
} from "~/services/affiliates/us-cities";
import { roadMilesBetween } from "~/services/affiliates/distance";
import { splitServiceAreas } from "~/services/affiliates/schemas";

describe("road distance from the bundled city table", () => {
  // Known sample routes; estimates must land within 6% of its figures.
  it.each([
    ["Dallas", "TX", "Houston", "TX", 240],
    ["Phoenix", "AZ", "Long Beach", "CA", 380],
    ["Miami", "FL", "New York", "NY", 1280],
  ])("%s, %s → %s, %s is about %i miles", (fromCity, fromState, toCity, toState, expected) => {
    const miles = roadMilesBetween(
      { city: fromCity, state: fromState },
      { city: toCity, state: toState },
    );
    expect(miles).not.toBeNull();
    expect(Math.abs(miles! - expected) / expected).toBeLessThan(0.06);
  });

  it("is symmetric, zero-free and unknown cities give null", () => {
    const a = { city: "Seattle", state: "WA" };
    const b = { city: "Boston", state: "MA" };
    expect(roadMilesBetween(a, b)).toBe(roadMilesBetween(b, a));
    expect(roadMilesBetween(a, a)).toBe(1);
    expect(roadMilesBetween(a, { city: "Atlantis", state: "ZZ" })).toBeNull();
  });

  it("holds at least 150 cities with sane coordinates, the major ports, and finds by label", () => {
    expect(US_CITIES.length).toBeGreaterThanOrEqual(150);
    for (const city of US_CITIES) {
      expect(city.lat).toBeGreaterThan(18);
      expect(city.lat).toBeLessThan(72);
      expect(city.lon).toBeLessThan(-66);
      expect(city.lon).toBeGreaterThan(-170);
    }
    const ports = EXPORT_PORTS.map((p) => `${p.city}, ${p.state}`);
    expect(ports).toEqual(
      expect.arrayContaining(["Long Beach, CA", "Houston, TX", "Savannah, GA", "Newark, NJ"]),
    );
    expect(findCityByLabel(" long beach ,ca")).toBe(findCity("Long Beach", "CA"));
    expect(findCityByLabel("Long Beach")).toBeNull();
  });
});

describe("service areas", () => {
  it("split on commas, trimmed, empties dropped", () => {
    expect(splitServiceAreas(" Texas, Oklahoma ,, ,Louisiana ")).toEqual([
      "Texas",
      "Oklahoma",
      "Louisiana",
    ]);
    expect(splitServiceAreas([" Texas ", ""])).toEqual(["Texas"]);
  });
});
