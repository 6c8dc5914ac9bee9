import { beforeAll, describe, expect, it } from "vitest";
import type { Listing } from "~/models/listing.server";
import { searchListings, parseListingFilters } from "~/services/listings/listings.server";
import type { ListingFilters } from "~/services/listings/schemas";
import { loader as communityLoader } from "~/routes/community-vehicles/route";
import { loader as apiVehiclesLoader } from "~/routes/api.vehicles";
import { createTestUser, requestAs } from "../support/auth";
import { createTestListing } from "../support/listings";

// One marked word per file run keeps these rows apart from anything else in the database.
const TAG = `zq${Date.now().toString(36)}`;
let rows: Record<string, Listing> = {};

async function ids(filters: ListingFilters) {
  const page = await searchListings({ search: TAG, ...filters }, { limit: 100 });
  return page.listings.map((l) => l.id).sort();
}
const expectIds = (...names: string[]) => names.map((n) => String(rows[n].id)).sort();

beforeAll(async () => {
  const seller = await createTestUser();
  const make = (name: string, fields: Parameters<typeof createTestListing>[1]) =>
    createTestListing(seller, { description: `tag ${TAG}`, ...fields }).then((l) => {
      rows[name] = l;
    });
  rows = {};
  await make("camry", {
    title: "Toyota Camry XLE",
    make: "Toyota",
    model: "Camry",
    year: 2019,
    price: "18500.00",
    condition: "excellent",
    bodyType: "sedan",
    country: "US",
    state: "TX",
    city: "Houston",
  });
  await make("f150", {
    title: "Work truck",
    make: "Ford",
    model: "F-150",
    year: 2015,
    price: "22000.00",
    condition: "fair",
    bodyType: "truck",
    country: "US",
    state: "CA",
    city: "Fresno",
  });
  await make("civic", {
    title: "Commuter special",
    make: "Honda",
    model: "Civic",
    year: 2012,
    price: "7000.50",
    currency: "CAD",
    condition: "good",
    bodyType: "hatchback",
    country: "CA",
    state: "ON",
    city: "Toronto",
  });
  await make("jetta", {
    title: "Family car",
    description: `tag ${TAG} sunroof and heated seats`,
    make: "Volkswagen",
    model: "Jetta",
    year: 2021,
    price: "350000.00",
    currency: "MXN",
    condition: "poor",
    bodyType: "sedan",
    country: "MX",
    state: "Jalisco",
    city: "Guadalajara",
  });
  await make("sold", { title: "Sold Camry", model: "Camry", status: "sold", soldAt: new Date() });
  await make("deleted", {
    title: "Deleted Camry",
    model: "Camry",
    status: "deleted",
    deletedAt: new Date(),
  });
});

describe("searching community listings", () => {
  it("shows only active listings", async () => {
    expect(await ids({})).toEqual(expectIds("camry", "f150", "civic", "jetta"));
  });

  it("matches the text search in title, make, model and description, case-insensitively", async () => {
    const search = (words: string) => ids({ search: `${TAG} ${words}` });
    expect(await search("xle")).toEqual(expectIds("camry"));
    expect(await search("FORD")).toEqual(expectIds("f150"));
    expect(await search("civic")).toEqual(expectIds("civic"));
    expect(await search("heated seats")).toEqual(expectIds("jetta"));
    expect(await search("nothing-like-this")).toEqual([]);
    expect(await search("%")).toEqual([]);
  });

  it("applies each filter alone", async () => {
    expect(await ids({ make: "toyota" })).toEqual(expectIds("camry"));
    expect(await ids({ model: "F-150" })).toEqual(expectIds("f150"));
    expect(await ids({ yearMin: 2019 })).toEqual(expectIds("camry", "jetta"));
    expect(await ids({ yearMax: 2015 })).toEqual(expectIds("f150", "civic"));
    // Prices compare in the buyer's currency (US dollars unless chosen) at the rates in force:
    // MX$350,000 is about US$17,950, so it is not from $18,500 (docs/decisions/2806).
    expect(await ids({ priceMin: "18500" })).toEqual(expectIds("camry", "f150"));
    expect(await ids({ priceMin: "18500", currency: "MXN" })).toEqual(
      expectIds("camry", "f150", "civic", "jetta"),
    );
    expect(await ids({ priceMax: "7000.50" })).toEqual(expectIds("civic"));
    expect(await ids({ country: "CA" })).toEqual(expectIds("civic"));
    expect(await ids({ state: "tx" })).toEqual(expectIds("camry"));
    expect(await ids({ city: "guadalajara" })).toEqual(expectIds("jetta"));
    expect(await ids({ condition: "excellent" })).toEqual(expectIds("camry"));
    expect(await ids({ bodyType: "truck" })).toEqual(expectIds("f150"));
  });

  it("combines filters", async () => {
    expect(await ids({ bodyType: "sedan", country: "US" })).toEqual(expectIds("camry"));
    expect(await ids({ yearMin: 2010, yearMax: 2016, condition: "good" })).toEqual(
      expectIds("civic"),
    );
    expect(await ids({ make: "Toyota", priceMax: "10000" })).toEqual([]);
    expect(
      await ids({
        make: "Volkswagen",
        model: "Jetta",
        yearMin: 2020,
        yearMax: 2022,
        priceMin: "1000",
        priceMax: "400000",
        country: "MX",
        state: "JALISCO",
        city: "Guadalajara",
        condition: "poor",
        bodyType: "sedan",
      }),
    ).toEqual(expectIds("jetta"));
  });

  it("counts every match and pages by keyset without repeats or gaps", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let total = 0;
    do {
      const page = await searchListings({ search: TAG }, { limit: 3, cursor });
      total = page.total;
      seen.push(...page.listings.map((l) => l.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(total).toBe(4);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
    expect(seen.sort()).toEqual(expectIds("camry", "f150", "civic", "jetta"));
  });

  it("reads only non-empty, valid parameters from a query string", () => {
    const parsed = parseListingFilters(
      new URLSearchParams("search=&make=Ford&yearMin=2010&condition=excellent&bodyType="),
    );
    expect(parsed).toEqual({
      ok: true,
      filters: { make: "Ford", yearMin: 2010, condition: "excellent" },
    });
    expect(parseListingFilters(new URLSearchParams("condition=shiny")).ok).toBe(false);
    expect(parseListingFilters(new URLSearchParams("yearMin=abc")).ok).toBe(false);
  });
});

describe("a page link whose cursor is not one of ours", () => {
  // "MXw1" is base64url for "1|5": it decodes, but "1" is no timestamp the database reads.
  const BAD_CURSORS = [
    "MXw1",
    "bm9wZQ",
    "!!!",
    Buffer.from("2024-01-01 00:00:00+00|99999999999999999999").toString("base64url"),
    Buffer.from("2024-02-30 00:00:00+00|5").toString("base64url"),
  ];
  const args = async (path: string) => ({
    request: await requestAs(null, path),
    params: {},
    context: {},
  });

  it("GET /api/vehicles answers 400 naming the cursor, never a 500", async () => {
    for (const cursor of BAD_CURSORS) {
      const response = (await apiVehiclesLoader(
        await args(`/api/vehicles?search=${TAG}&cursor=${encodeURIComponent(cursor)}`),
      )) as Response;
      expect(response.status, cursor).toBe(400);
      const body = (await response.json()) as { message: string; fields: Record<string, string> };
      expect(body.message).toMatch(/cursor/);
      expect(Object.keys(body.fields)).toEqual(["cursor"]);
    }
  });

  it("GET /api/vehicles still pages with its own cursor", async () => {
    const first = (await apiVehiclesLoader(
      await args(`/api/vehicles?search=${TAG}&limit=3`),
    )) as Response;
    const next = first.headers.get("x-next-cursor");
    expect(next).toBeTruthy();
    const second = (await apiVehiclesLoader(
      await args(`/api/vehicles?search=${TAG}&limit=3&cursor=${next}`),
    )) as Response;
    expect(second.status).toBe(200);
    expect(await second.json()).toHaveLength(1);
    const fractional = (await apiVehiclesLoader(
      await args(`/api/vehicles?search=${TAG}&limit=1.5`),
    )) as Response;
    expect(fractional.status).toBe(200);
    expect(await fractional.json()).toHaveLength(1);
  });

  it("/community-vehicles shows the first page with a notice", async () => {
    for (const cursor of BAD_CURSORS) {
      const data = await communityLoader(
        await args(`/community-vehicles?search=${TAG}&cursor=${encodeURIComponent(cursor)}`),
      );
      expect(data.cursor, cursor).toBeNull();
      expect(data.notices.join(" ")).toMatch(/first page/);
      expect(data.page.listings.map((l) => l.id).sort()).toEqual(
        expectIds("camry", "f150", "civic", "jetta"),
      );
    }
  });
});
