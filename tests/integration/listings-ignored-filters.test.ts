// A bad filter value on /community-vehicles (a typo in a shared link) is left out of the search
// and named with its reason; GET /api/vehicles refuses the same values with a 400.
import { beforeAll, describe, expect, it } from "vitest";
import { maxListingYear } from "~/services/listings/rules";
import { loader as communityLoader } from "~/routes/community-vehicles/route";
import { loader as apiVehiclesLoader } from "~/routes/api.vehicles";
import { createTestUser, requestAs } from "../support/auth";
import { createTestListing } from "../support/listings";
import { call, type Handler } from "../support/routes";

const TAG = `zi${Date.now().toString(36)}`;
const YEARS = `enter a year between 1900 and ${maxListingYear()}`;
const PRICE = "enter an amount of 0 or more, like 15000 or 15000.50";
const ids: Record<string, string> = {};

type PageData = {
  filters: Record<string, unknown>;
  ignored: Array<{ key: string; value: string; problem: string }>;
  page: { listings: Array<{ id: string }> };
};

async function community(query: string) {
  const response = await call(
    communityLoader as unknown as Handler,
    await requestAs(null, `/community-vehicles?search=${TAG}&${query}`),
  );
  expect(response.status, query).toBe(200);
  return (await response.json()) as PageData;
}

const found = (data: PageData) => data.page.listings.map((l) => l.id).sort();
const notices = (data: PageData) => data.ignored.map(({ key, problem }) => `${key}: ${problem}`);

beforeAll(async () => {
  const seller = await createTestUser();
  for (const [name, year, price] of [
    ["old", 2005, "4000.00"],
    ["new", 2022, "30000.00"],
  ] as const) {
    const listing = await createTestListing(seller, {
      title: `${name} ${TAG}`,
      description: `tag ${TAG}`,
      year,
      price,
    });
    ids[name] = String(listing.id);
  }
});

describe("/community-vehicles with bad filter values", () => {
  it("still shows results, leaving out each bad filter and naming why", async () => {
    const cases: Array<[string, string[]]> = [
      ["yearMin=abc", [`yearMin: ${YEARS}`]],
      ["yearMin=1800", [`yearMin: ${YEARS}`]],
      [`yearMax=${maxListingYear() + 5}`, [`yearMax: ${YEARS}`]],
      ["priceMin=-5", [`priceMin: ${PRICE}`]],
      ["priceMax=lots", [`priceMax: ${PRICE}`]],
      ["condition=shiny", ["condition: choose one of the listed options"]],
      [
        "bodyType=boat&country=FR",
        ["country: choose one of the listed options", "bodyType: choose one of the listed options"],
      ],
    ];
    for (const [query, expected] of cases) {
      const data = await community(query);
      expect(notices(data), query).toEqual(expected);
      expect(found(data), query).toEqual([ids.old, ids.new].sort());
    }
  });

  it("keeps the good filters, and the bad value as typed for the form", async () => {
    const data = await community("yearMin=1800&priceMin=-5&priceMax=10000");
    expect(data.filters).toEqual({ search: TAG, priceMax: "10000" });
    expect(found(data)).toEqual([ids.old]);
    expect(data.ignored).toEqual([
      { key: "yearMin", value: "1800", problem: YEARS },
      { key: "priceMin", value: "-5", problem: PRICE },
    ]);
  });

  it("says nothing when every filter is good", async () => {
    const data = await community(`yearMin=2020&yearMax=${maxListingYear()}&priceMin=0`);
    expect(data.ignored).toEqual([]);
    expect(found(data)).toEqual([ids.new]);
  });
});

describe("GET /api/vehicles with the same bad values", () => {
  it("answers 400 naming each bad parameter and why", async () => {
    for (const [query, field, problem] of [
      ["yearMin=abc", "yearMin", YEARS],
      ["yearMin=1800", "yearMin", YEARS],
      ["yearMax=1800", "yearMax", YEARS],
      ["priceMin=-5", "priceMin", PRICE],
      ["priceMax=-5", "priceMax", PRICE],
    ]) {
      const response = await call(
        apiVehiclesLoader as unknown as Handler,
        await requestAs(null, `/api/vehicles?search=${TAG}&${query}`),
      );
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { message: string; fields: Record<string, string> };
      expect(body.message).toContain(field);
      expect(body.fields).toEqual({ [field]: problem });
    }
  });
});
