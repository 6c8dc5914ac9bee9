// Issue 35, lot facts: the damage filter offers the houses' own primary damage names (the words
// the cards show), grouped by kind, with counts; the list sorts by ending, newest, price and year,
// and every order pages through without repeating a lot.
import { describe, expect, it } from "vitest";
import * as auctionsRoute from "~/routes/auctions._index/route";
import {
  countAuctionFilterOptions,
  forgetAuctionFilterOptions,
} from "~/services/auctions/filter-options.server";
import { forgetLotCounts, searchLots } from "~/services/auctions/lots.server";
import { AuctionQuerySchema } from "~/services/auctions/schemas";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { call, type Handler } from "../support/routes";

const unique = () => `Z${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`.toUpperCase();

describe("one damage vocabulary", () => {
  it("offers primary damages as the houses name them, grouped by kind, with counts", async () => {
    const front = `FRONT END ${unique()}`;
    await createTestLot({ damageType: "collision", primaryDamage: front });
    await createTestLot({ damageType: "collision", primaryDamage: front });
    const flood = `WATER/FLOOD ${unique()}`;
    await createTestLot({
      damageType: "flood",
      primaryDamage: flood,
      secondaryDamage: "ELECTRICAL",
    });
    const options = await countAuctionFilterOptions();
    const collision = options.damages.find((group) => group.value === "collision");
    expect(collision?.label).toBe("Collision");
    expect(collision?.options.find((o) => o.value === front)).toEqual({
      value: front,
      label: front,
      count: 2,
    });
    const water = options.damages.find((group) => group.value === "flood");
    expect(water?.options.find((o) => o.value === flood)?.count).toBe(1);
    // no group's choice is a category word: every choice is a house's own wording
    for (const group of options.damages)
      for (const option of group.options) expect(option.label).toBe(option.label.toUpperCase());
  });

  it("filters by the house's damage name and the cards carry the lot facts", async () => {
    const user = await createTestUser();
    const make = unique();
    const rear = `REAR END ${unique()}`;
    const lot = await createTestLot({
      make,
      damageType: "collision",
      primaryDamage: rear,
      secondaryDamage: "SIDE",
      odometer: 81234,
      titleType: "salvage",
    });
    await createTestLot({ make, damageType: "collision", primaryDamage: "FRONT END" });
    forgetAuctionFilterOptions();
    const response = await call(
      auctionsRoute.loader as Handler,
      await requestAs(
        user,
        `/auctions?make=${make}&damage=${encodeURIComponent(rear.toLowerCase())}`,
      ),
    );
    const body = await response.json();
    expect(body.vehicles).toHaveLength(1);
    expect(body.vehicles[0]).toMatchObject({
      id: String(lot.id),
      lotNumber: lot.lotNumber,
      primaryDamage: rear,
      secondaryDamage: "SIDE",
      odometer: 81234,
      titleType: "salvage",
      endsAt: lot.endsAt.toISOString(),
    });
  });
});

describe("sorting the list", () => {
  async function arrange() {
    const make = unique();
    const hour = 60 * 60 * 1000;
    const at = Date.now();
    const lots = await Promise.all(
      [
        { year: 2011, currentBid: "900.00", startsAt: at - 5 * hour, endsAt: at + 3 * hour },
        { year: 2020, currentBid: "150.00", startsAt: at - 1 * hour, endsAt: at + 9 * hour },
        { year: 2015, currentBid: "4200.00", startsAt: at - 3 * hour, endsAt: at + 1 * hour },
        { year: 2018, currentBid: "2500.00", startsAt: at - 2 * hour, endsAt: at + 5 * hour },
        { year: 2009, currentBid: "60.00", startsAt: at - 4 * hour, endsAt: at + 7 * hour },
      ].map((fields) =>
        createTestLot({
          make,
          year: fields.year,
          currentBid: fields.currentBid,
          startsAt: new Date(fields.startsAt),
          endsAt: new Date(fields.endsAt),
        }),
      ),
    );
    return { make, lots };
  }

  async function allPages(make: string, sort: string) {
    const seen: { year: number; currentBid: string; endsAt: string; startsAt: string }[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const query = AuctionQuerySchema.parse({ make, sort, cursor });
      const result = await searchLots(query, null, 2);
      seen.push(...result.vehicles);
      expect(result.total).toBe(5);
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
    return seen;
  }

  it("orders by each choice across pages, never repeating a lot", async () => {
    const { make } = await arrange();
    forgetLotCounts();
    const years = (rows: { year: number }[]) => rows.map((row) => row.year);
    expect(years(await allPages(make, "ending"))).toEqual([2015, 2011, 2018, 2009, 2020]);
    expect(years(await allPages(make, "newest"))).toEqual([2020, 2018, 2015, 2009, 2011]);
    expect(years(await allPages(make, "price_asc"))).toEqual([2009, 2020, 2011, 2018, 2015]);
    expect(years(await allPages(make, "price_desc"))).toEqual([2015, 2018, 2011, 2020, 2009]);
    expect(years(await allPages(make, "year_desc"))).toEqual([2020, 2018, 2015, 2011, 2009]);
    expect(years(await allPages(make, "year_asc"))).toEqual([2009, 2011, 2015, 2018, 2020]);
  });

  it("refuses an order it does not know on the API and leaves it out on the page", async () => {
    expect(AuctionQuerySchema.safeParse({ sort: "cheapest" }).success).toBe(false);
    const user = await createTestUser();
    const response = await call(
      auctionsRoute.loader as Handler,
      await requestAs(user, "/auctions?sort=cheapest"),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.ignored.map((filter: { key: string }) => filter.key)).toEqual(["sort"]);
  });
});
