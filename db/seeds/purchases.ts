// A won, unpaid purchase for the demo buyer, so "My auctions", the invoice and paying can be seen
// at once. The lot ended a minute ago and is closed by the closer itself (which writes the
// invoice and the "You won"); a second run finds the lot and adds nothing.
import { QueryTypes } from "sequelize";
import { sequelize } from "../../app/models/db.server";
import { closeLotIfEnded } from "../../app/services/auctions/closer.server";
import { vehicleArtUrl } from "../../app/services/vehicles/drawing";
import { auctionValue, retailValue } from "../../app/services/vehicles/valuation";
import type { SeedOptions } from "./index";
import { CATALOG, vinFor } from "./lot-catalog";

const LOT_NUMBER = "DEMOWON1";
// a real 2019 Civic sedan from the catalogue, so its VIN decodes and its picture matches
const CIVIC = CATALOG.find((entry) => entry.make === "Honda" && entry.model === "Civic")!;
const YEAR = 2019;
const ODOMETER = 61_200;
// An engine-fire Civic that does not run, salvage title: cheap enough that the demo buyer's
// buying power stays well above the bidding minimum, and priced as such a car really sells
// (the value model, as every demo lot; docs/decisions/2853), not as a runner given away.
const FACTS = {
  damageType: "fire",
  primaryDamage: "BURN",
  titleType: "salvage",
  runsDrives: false,
} as const;
function demoPrices(thisYear: number) {
  const retail = retailValue({
    msrp: CIVIC.msrp,
    segment: CIVIC.segment,
    age: thisYear - YEAR,
    mileage: ODOMETER,
  });
  return { retail: retail.toFixed(2), hammer: auctionValue({ retail, ...FACTS }).toFixed(2) };
}

export async function seedPurchases({ log }: SeedOptions) {
  const [buyer] = await sequelize.query<{ id: string }>(
    "SELECT id FROM users WHERE email = 'buyer@bidyard.test'",
    { type: QueryTypes.SELECT },
  );
  if (!buyer) return log("demo purchase: no demo buyer, skipped");
  const at = Date.now();
  const { retail, hammer } = demoPrices(new Date(at).getUTCFullYear());
  const lots = await sequelize.query<{ id: string }>(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, body_style, color,
        location_city, location_state, location_zip, yard_name, damage_type, primary_damage,
        title_state, title_type, odometer, runs_drives, has_keys, estimated_value, image_urls,
        starts_at, ends_at, current_bid, bid_count, high_bidder_id, high_max, demo,
        run_condition, odometer_brand, condition_code, item_number, grid_row)
     VALUES ('copart', :lotNumber, :vin, :year, 'Honda', 'Civic', :bodyStyle, 'Blue',
        'Dallas', 'TX', '75211', 'Copart Dallas', :damageType, :primaryDamage, 'TX', :titleType,
        :odometer, :runsDrives, true, :retail, ARRAY[:art], :startsAt, :endsAt, :hammer, 1,
        :buyerId, :hammer, true, 'stationary', 'actual', 'N', '214', 'K-09')
     ON CONFLICT (auction_house, lot_number) DO NOTHING RETURNING id`,
    {
      replacements: {
        lotNumber: LOT_NUMBER,
        vin: vinFor(CIVIC, YEAR, 512_345),
        year: YEAR,
        odometer: ODOMETER,
        retail,
        ...FACTS,
        bodyStyle: CIVIC.bodyStyle,
        art: vehicleArtUrl(CIVIC.bodyStyle, "Blue"),
        startsAt: new Date(at - 2 * 24 * 60 * 60 * 1000),
        endsAt: new Date(at - 60 * 1000),
        hammer,
        buyerId: buyer.id,
      },
      type: QueryTypes.SELECT,
    },
  );
  if (!lots[0]) return log("demo purchase: already there");
  await sequelize.query(
    `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, created_at)
     VALUES (:lotId, :buyerId, :hammer, :hammer, false, :at)`,
    {
      replacements: {
        lotId: lots[0].id,
        buyerId: buyer.id,
        hammer,
        at: new Date(at - 3600_000),
      },
    },
  );
  await closeLotIfEnded(lots[0].id);
  log(`demo purchase: buyer@bidyard.test won lot ${LOT_NUMBER} (unpaid invoice)`);
}
