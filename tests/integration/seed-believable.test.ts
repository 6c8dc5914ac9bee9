// The demo and scale seeds against the rules of a believable catalogue (db/seeds/believable.ts,
// docs/decisions/2853): every lot, sold result and community listing, and a sample of the scale
// sets the benchmark uses.
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { availableBuyingPower } from "~/services/auctions/buying-power.server";
import { purchaseView } from "~/services/purchases/invoices.server";
import { toCents } from "~/utils/money";
import { runSeeds } from "../../db/seeds/index";
import {
  lotProblems,
  listingProblems,
  modelRetail,
  type Condition,
} from "../../db/seeds/believable";
import { SEED_RATES, seedBulkListings } from "../../db/seeds/listings";
import { catalogEntry } from "../../db/seeds/lot-catalog";
import { seedScaleLots } from "../../db/seeds/lots";

const rows = <T extends object>(sql: string) =>
  sequelize.query<T>(sql, { type: QueryTypes.SELECT });
const thisYear = new Date().getUTCFullYear();

type LotRow = {
  lot: string;
  make: string;
  model: string;
  year: number;
  odometer: number | null;
  primary_damage: string | null;
  secondary_damage: string | null;
  damage_type: string;
  title_type: string;
  runs_drives: boolean;
  estimated_value: string | null;
  repair_cost: string | null;
  status: string;
  current_bid: string;
};

async function lotsProblems(where: string) {
  const lots = await rows<LotRow>(
    `SELECT auction_house || ' ' || lot_number || ' (' || year || ' ' || make || ' ' || model
              || ')' AS lot,
            make, model, year, odometer, primary_damage, secondary_damage, damage_type,
            title_type, runs_drives, estimated_value, repair_cost, status, current_bid
       FROM lots WHERE ${where}`,
  );
  const problems = lots.flatMap((row) => {
    const entry = catalogEntry(row.make, row.model, row.year);
    const model = entry
      ? { retail: modelRetail(entry, row.year, row.odometer, thisYear) }
      : undefined;
    return [
      ...(entry ? [] : [`${row.lot}: not a catalogue car`]),
      ...lotProblems(
        {
          lot: row.lot,
          year: row.year,
          odometer: row.odometer,
          primaryDamage: row.primary_damage,
          secondaryDamage: row.secondary_damage,
          damageType: row.damage_type,
          titleType: row.title_type,
          runsDrives: row.runs_drives,
          estimatedValue: row.estimated_value === null ? null : Number(row.estimated_value),
          repairCost: row.repair_cost === null ? null : Number(row.repair_cost),
          status: row.status,
          soldPrice: row.status === "sold" ? Number(row.current_bid) : null,
        },
        thisYear,
        model,
      ),
    ];
  });
  return { count: lots.length, problems };
}

type ListingRow = {
  listing: string;
  title: string;
  description: string;
  make: string;
  model: string;
  year: number;
  mileage: number | null;
  condition: Condition;
  price: string;
  currency: keyof typeof SEED_RATES;
};

async function listingsProblems(where: string) {
  const listings = await rows<ListingRow>(
    `SELECT '#' || id || ' ' || title AS listing, title, description, make, model, year,
            mileage, condition, price, currency
       FROM listings WHERE ${where}`,
  );
  const problems = listings.flatMap((row) => {
    const entry = catalogEntry(row.make, row.model, row.year);
    return [
      ...(entry ? [] : [`${row.listing}: not a catalogue car`]),
      ...listingProblems(
        {
          listing: row.listing,
          title: row.title,
          description: row.description,
          year: row.year,
          mileage: row.mileage,
          condition: row.condition,
          priceUsd: Number(row.price) / SEED_RATES[row.currency],
        },
        thisYear,
        entry ? { retail: modelRetail(entry, row.year, row.mileage, thisYear) } : undefined,
      ),
    ];
  });
  return { count: listings.length, problems };
}

describe("the demo catalogue is believable", () => {
  it("every demo lot and sold result: damage, title, runs and drives, miles and price agree", async () => {
    await runSeeds([], () => undefined);
    const { count, problems } = await lotsProblems("true");
    expect(count).toBeGreaterThan(900);
    expect(problems).toEqual([]);
    const [{ sold, runners }] = await rows<{ sold: number; runners: number }>(
      `SELECT count(*) FILTER (WHERE status = 'sold')::int AS sold,
              count(*) FILTER (WHERE status = 'sold' AND runs_drives)::int AS runners FROM lots`,
    );
    expect(sold).toBeGreaterThan(400);
    expect(runners).toBeGreaterThan(100);
  }, 120_000);

  it("the demo lots carry the houses' facts, and the grade agrees with runs and drives", async () => {
    const [facts] = await rows<{
      lots: number;
      graded: number;
      disagree: number;
      branded: number;
      exemptNew: number;
      copartNoLane: number;
      grades: number;
      brands: number;
    }>(
      `SELECT count(*)::int AS lots,
              count(run_condition)::int AS graded,
              count(*) FILTER (WHERE (run_condition = 'run_and_drive') <> runs_drives)::int
                AS disagree,
              count(odometer_brand)::int AS branded,
              count(*) FILTER (WHERE odometer_brand = 'exempt' AND year > 2010
                                 AND year >= extract(year FROM now()) - 20)::int AS "exemptNew",
              count(*) FILTER (WHERE auction_house = 'copart'
                                 AND (grid_row IS NULL OR item_number IS NULL))::int
                AS "copartNoLane",
              count(DISTINCT run_condition)::int AS grades,
              count(DISTINCT odometer_brand)::int AS brands
         FROM lots WHERE demo`,
    );
    expect(facts.lots).toBeGreaterThan(300);
    expect(facts).toMatchObject({
      graded: facts.lots,
      disagree: 0,
      branded: facts.lots,
      exemptNew: 0,
      copartNoLane: 0,
      grades: 3,
    });
    // "not actual" beside "actual"; "exempt" only where the catalogue has cars that old
    expect(facts.brands).toBeGreaterThanOrEqual(2);
  });

  it("the demo buyer's won Civic is priced as what it is", async () => {
    const [won] = await rows<{ runs_drives: boolean; current_bid: string; primary_damage: string }>(
      "SELECT runs_drives, current_bid, primary_damage FROM lots WHERE lot_number = 'DEMOWON1'",
    );
    // a runner is never given away: this one is a burned non-runner, sold as one
    expect(won).toMatchObject({ runs_drives: false, primary_damage: "BURN" });
    expect(Number(won.current_bid)).toBeLessThan(1500);
  });

  it("with the Civic's whole invoice held, the demo buyer can still bid (record 3510)", async () => {
    const [buyer] = await rows<{ id: string; deposit: string }>(
      "SELECT id, deposit FROM users WHERE email = 'buyer@bidyard.test'",
    );
    const [purchase] = await rows<{ id: string }>(
      `SELECT p.id FROM purchases p JOIN lots l ON l.id = p.lot_id
        WHERE l.lot_number = 'DEMOWON1' AND p.status = 'pending'`,
    );
    const invoice = await purchaseView(buyer.id, String(purchase.id));
    const available = toCents(await availableBuyingPower(buyer.id));
    expect(available).toBe(toCents(buyer.deposit) - invoice.totalCents);
    // well above the $400 a bidder needs on deposit: the demo buyer can still bid on a lot
    expect(available).toBeGreaterThan(40_000);
  });

  it("every community listing: its title and description agree with its condition and miles, its price with the car", async () => {
    const { count, problems } = await listingsProblems("true");
    expect(count).toBe(320);
    expect(problems).toEqual([]);
  });

  it("nobody posted or bid before their account existed", async () => {
    const [{ listings, bids }] = await rows<{ listings: number; bids: number }>(
      `SELECT (SELECT count(*)::int FROM listings l JOIN users u ON u.id = l.user_id
                WHERE l.created_at < u.created_at) AS listings,
              (SELECT count(*)::int FROM bids b JOIN users u ON u.id = b.user_id
                WHERE b.created_at < u.created_at) AS bids`,
    );
    expect({ listings, bids }).toEqual({ listings: 0, bids: 0 });
  });

  it("the scale sets keep the same rules", async () => {
    await seedScaleLots(3000);
    await seedBulkListings(3000);
    const lots = await lotsProblems("lot_number LIKE 'S%'");
    expect(lots.count).toBe(3000);
    expect(lots.problems).toEqual([]);
    const listings = await listingsProblems("title LIKE '% #%'");
    expect(listings.count).toBe(3000);
    expect(listings.problems).toEqual([]);
  }, 120_000);
});
