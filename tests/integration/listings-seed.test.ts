import { describe, expect, it } from "vitest";
import { COUNT_CAP, searchListings } from "~/services/listings/listings.server";
import { runSeeds } from "../../db/seeds/index";
import { DEMO_LISTING_COUNT } from "../../db/seeds/listings";
import { count } from "../support/sql";

describe("listing seeds", () => {
  it("load varied demo listings once, and top up the bulk seller with --listings", async () => {
    await runSeeds([], () => undefined);
    await runSeeds([], () => undefined);
    expect(await count("SELECT count(*) AS n FROM listings")).toBe(DEMO_LISTING_COUNT);
    expect(await count("SELECT count(DISTINCT user_id) AS n FROM listings")).toBeGreaterThanOrEqual(
      5,
    );
    expect(await count("SELECT count(DISTINCT country) AS n FROM listings")).toBe(3);
    expect(await count("SELECT count(DISTINCT currency) AS n FROM listings")).toBe(3);
    expect(await count("SELECT count(DISTINCT condition) AS n FROM listings")).toBe(4);
    expect(await count("SELECT count(DISTINCT body_type) AS n FROM listings")).toBe(6);
    expect(await count("SELECT count(*) AS n FROM listing_photos")).toBeGreaterThan(200);
    expect((await searchListings({ condition: "excellent" })).total).toBeGreaterThan(10);

    await runSeeds(["--listings", "10050"], () => undefined);
    await runSeeds(["--listings", "10050"], () => undefined);
    expect(await count("SELECT count(*) AS n FROM listings")).toBe(DEMO_LISTING_COUNT + 10050);
    const page = await searchListings({ country: "MX", bodyType: "truck" });
    expect(page.total).toBeGreaterThan(0);
    expect(page.totalCapped).toBe(false);
    // Past COUNT_CAP matches the count stops: the page says "10,000+".
    const all = await searchListings({});
    expect([all.total, all.totalCapped]).toEqual([COUNT_CAP, true]);
  });
});
