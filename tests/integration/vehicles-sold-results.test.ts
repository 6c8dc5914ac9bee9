import { QueryTypes } from "sequelize";
import { beforeAll, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { comparableSales, searchSoldLots } from "~/services/results/results.server";
import { loader as lotLoader } from "~/routes/auctions.$lotId/route";
import { loader as comparablesLoader } from "~/routes/auctions.$lotId_.comparables";
import { loader as vinLoader } from "~/routes/auctions.$lotId_.vin";
import { loader as resultsLoader } from "~/routes/auctions.results";
import { seedDemoLots } from "../../db/seeds/lots";
import { createTestUser, requestAs } from "../support/auth";

const context = {};
const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const m = (s.length - 1) / 2;
  return (s[Math.floor(m)] + s[Math.ceil(m)]) / 2;
};
const nearest25 = (n: number) => (Math.round(n / 25) * 25).toFixed(2);

beforeAll(async () => {
  await seedDemoLots();
}, 120_000);

describe("sold results", () => {
  it("finds sold lots by make, model and years, with the median of all matches", async () => {
    const [{ make, model }] = await sequelize.query<{ make: string; model: string }>(
      `SELECT make, model FROM lots WHERE status = 'sold' GROUP BY make, model
        ORDER BY count(*) DESC LIMIT 1`,
      { type: QueryTypes.SELECT },
    );
    const { lots, summary } = await searchSoldLots({ make: make.toUpperCase(), model });
    const prices = await sequelize.query<{ p: string }>(
      "SELECT current_bid AS p FROM lots WHERE status = 'sold' AND make = :make AND model = :model",
      { replacements: { make, model }, type: QueryTypes.SELECT },
    );
    expect(summary.count).toBe(prices.length);
    expect(summary.median).toBe(nearest25(median(prices.map((r) => Number(r.p)))));
    expect(lots.length).toBe(Math.min(50, prices.length));
    expect(lots.every((l) => l.make === make && l.model === model)).toBe(true);
    // newest first, and every price is a closed lot's final bid
    const times = lots.map((l) => l.soldAt);
    expect([...times].sort().reverse()).toEqual(times);

    const narrowed = await searchSoldLots({ make, model, yearFrom: 2020, title: "salvage" });
    expect(narrowed.lots.every((l) => l.year >= 2020 && l.titleType === "salvage")).toBe(true);
  });

  it("the page answers a search without JavaScript, and bad filters with a clear 400", async () => {
    const user = await createTestUser();
    const ok = (await resultsLoader({
      request: await requestAs(user, "/auctions/results?make=Honda&yearFrom=2015&damage=collision"),
      params: {},
      context,
    })) as { results: { summary: { count: number } }; problems: string[] };
    expect(ok.problems).toEqual([]);
    expect(ok.results.summary.count).toBeGreaterThan(0);
    const bad = (await resultsLoader({
      request: await requestAs(user, "/auctions/results?yearFrom=20x5&damage=lava&yearTo=1990"),
      params: {},
      context,
    })) as unknown as { data: { problems: string[]; results: null }; init: { status: number } };
    expect(bad.init.status).toBe(400);
    expect(bad.data.results).toBeNull();
    expect(bad.data.problems).toEqual(
      expect.arrayContaining([
        "Year from: enter a 4-digit year",
        "Damage: choose one of the listed options",
      ]),
    );
  });

  it("a lot page shows comparable sales (same make and model, ±2 years), their median and a likely range", async () => {
    const [lot] = await sequelize.query<{ id: string }>(
      `SELECT l.id::text AS id FROM lots l WHERE l.status = 'active' AND (
         SELECT count(*) FROM lots s WHERE s.status = 'sold' AND s.make = l.make
            AND s.model = l.model AND abs(s.year - l.year) <= 2) >= 3
       ORDER BY l.id LIMIT 1`,
      { type: QueryTypes.SELECT },
    );
    const user = await createTestUser();
    const page = await lotLoader({
      request: await requestAs(user, `/auctions/${lot.id}`),
      params: { lotId: lot.id },
      context,
    });
    // the sales themselves are on the lot's own sales page (record 3544); the lot page keeps
    // the range and median the bid is weighed with
    expect(page.comparables).not.toHaveProperty("sales");
    const listed = await comparablesLoader({
      request: await requestAs(user, `/auctions/${lot.id}/comparables`),
      params: { lotId: lot.id },
      context,
    });
    const comparables = { ...listed.comparables, ...page.comparables };
    expect(listed.comparables.spread).toEqual(page.comparables.spread);
    expect(comparables.sales.length).toBeGreaterThanOrEqual(3);
    for (const sale of comparables.sales) {
      expect([sale.make, sale.model]).toEqual([page.lot.make, page.lot.model]);
      expect(Math.abs(sale.year - page.lot.year)).toBeLessThanOrEqual(2);
    }
    expect(comparables.likely?.basis).toBe("sales");
    expect(Number(comparables.likely!.low)).toBeLessThanOrEqual(Number(comparables.spread.median));
    expect(Number(comparables.likely!.high)).toBeGreaterThanOrEqual(
      Number(comparables.spread.median),
    );
    // the range sits inside the sales it rests on (record 2703)
    expect(Number(comparables.likely!.low)).toBeGreaterThanOrEqual(Number(comparables.spread.min));
    expect(Number(comparables.likely!.high)).toBeLessThanOrEqual(Number(comparables.spread.max));
    // the decoded VIN agrees with the seeded lot: no warning on the lot page, the make on its
    // VIN page
    expect(page.vin).toMatchObject({ decoded: true, warning: null });
    const vinPage = await vinLoader({
      request: await requestAs(user, `/auctions/${lot.id}/vin`),
      params: { lotId: lot.id },
      context,
    });
    expect(vinPage.report?.decoded?.make).toBe(page.lot.make);
  });

  it("with no sales the likely range comes from the value model, and says so", async () => {
    const result = await comparableSales({
      id: "0",
      year: 1995,
      make: "Nobody",
      model: "Sells This",
      damageType: "collision",
      primaryDamage: "FRONT END",
      titleType: "salvage",
      runsDrives: true,
      estimatedValue: "20000.00",
    });
    expect(result.sales).toEqual([]);
    // 20,000 × 0.34 (front end) × 0.86 (salvage) = 5,848 → 5,850; ±20 %
    expect(result.likely).toEqual({ low: "4675.00", high: "7025.00", basis: "model", count: 0 });
    expect(result.guidance).toBeNull();
  });
});
