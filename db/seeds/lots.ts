// Demo lots (a few hundred, every badge, some already sold so results and comparable sales
// show) and, with --lots N, the scale set in one INSERT … SELECT per chunk. Every VIN is built
// from a catalogue entry and decodes to its lot's year, make and model (docs/decisions/2103).
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "../../app/models/db.server";
import { User } from "../../app/models/user.server";
import { vehicleArtUrl } from "../../app/services/vehicles/drawing";
import {
  DAMAGE_SHARE,
  MILES_PER_YEAR,
  auctionValue,
  repairEstimate,
  retailValue,
} from "../../app/services/vehicles/valuation";
import { lotCombos, secondaryDamages } from "./believable";
import type { SeedOptions } from "./index";
import { CATALOG, COLORS, YARDS, catalogYears, prng, vinFor, vinSql } from "./lot-catalog";

const DEMO_COUNT = 320;
/** Closed lots from the last four months: what /auctions/results and comparable sales show. */
const RESULT_COUNT = 600;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** Past bidders who won the seeded sold lots (they never sign in). */
export const RESULT_BIDDERS = [1, 2, 3, 4, 5, 6].map((n) => ({
  email: `past.bidder${n}@bidyard.test`,
  firstName: "Past",
  lastName: `Bidder ${n}`,
  verified: true,
}));

export function scaleCount(args: string[]) {
  const index = args.indexOf("--lots");
  if (index === -1) return 0;
  const count = Number(args[index + 1]);
  if (!Number.isInteger(count) || count < 1 || count > 5_000_000)
    throw new Error("--lots needs a whole number between 1 and 5,000,000");
  return count;
}

type Random = ReturnType<typeof prng>;

/** Damage, title and runs-and-drives as the rules allow them, weighted (docs/decisions/2853). */
const COMBOS = lotCombos();
const WEIGHTED_COMBOS = COMBOS.map((combo) => [combo, combo.weight] as const);

/**
 * The houses' facts for a demo lot (docs/decisions/3550), drawn from its index so the other
 * draws (and so every other seeded fact) stay as they were: a car that runs and drives is graded
 * so; one that does not starts in about half the cases, never after a burn or a flood. The
 * odometer of a car older than 2011 is exempt (federal odometer rule), a few others read "not
 * actual". Copart writes a grid/row and a condition code; IAAI neither.
 */
function houseFacts(
  i: number,
  house: "copart" | "iaai",
  year: number,
  thisYear: number,
  runsDrives: boolean,
  damage: string,
) {
  const spread = (i * 2654435761) % 1000;
  const starts = !runsDrives && spread % 2 === 0 && !/BURN|WATER|FLOOD/.test(damage);
  const runCondition = runsDrives ? "run_and_drive" : starts ? "engine_start" : "stationary";
  const odometerBrand =
    year <= 2010 || thisYear - year > 20 ? "exempt" : spread < 40 ? "not_actual" : "actual";
  return {
    run_condition: runCondition,
    odometer_brand: odometerBrand,
    condition_code:
      house === "copart"
        ? { run_and_drive: "D", engine_start: "S", stationary: "N" }[runCondition]
        : null,
    item_number: String(100 + (i % 900)),
    grid_row:
      house === "copart"
        ? `${"ABCDEFGHJK"[i % 10]}-${String(1 + (spread % 40)).padStart(2, "0")}`
        : null,
  };
}

/** One believable lot: a catalogue vehicle, its value from the model, damage, title and yard. */
function makeLot(random: Random, i: number, house: "copart" | "iaai", thisYear: number) {
  const entry = random.pick(CATALOG);
  const year = random.int(entry.years[0], Math.min(entry.years[1], thisYear));
  const age = thisYear - year;
  const yard = random.pick(YARDS);
  const combo = random.weighted(WEIGHTED_COMBOS);
  const title = combo.title;
  const color = random.weighted(COLORS);
  const odometer = Math.max(
    800,
    Math.round((age + 0.5) * random.int(7_000, 17_000) + random.int(0, 4000)),
  );
  const runsDrives = combo.runs;
  const damage = { text: combo.damage, type: combo.type };
  const retail = retailValue({ msrp: entry.msrp, segment: entry.segment, age, mileage: odometer });
  const auction = auctionValue({
    retail,
    primaryDamage: damage.text,
    damageType: damage.type,
    titleType: title,
    runsDrives,
  });
  const secondaries = secondaryDamages(damage.text, runsDrives);
  const secondary =
    secondaries.length > 0 && random.next() < 0.35 ? random.pick(secondaries) : null;
  return {
    entry,
    auction,
    row: {
      auction_house: house,
      lot_number: "",
      vin: vinFor(entry, year, 100_000 + i * 7 + random.int(0, 6)),
      year,
      make: entry.make,
      model: entry.model,
      body_style: entry.bodyStyle,
      color: color.toUpperCase(),
      location_city: yard.city,
      location_state: yard.state,
      location_zip: yard.zip,
      yard_name: house === "copart" ? yard.copart : yard.iaai,
      damage_type: damage.type,
      primary_damage: damage.text,
      secondary_damage: secondary,
      title_state: yard.state,
      title_type: title,
      odometer,
      runs_drives: runsDrives,
      has_keys: random.next() < 0.78,
      ...houseFacts(i, house, year, thisYear, runsDrives, damage.text),
      estimated_value: retail.toFixed(2),
      repair_cost: repairEstimate(retail, auction).toFixed(2),
      image_urls: [vehicleArtUrl(entry.body, color)],
      starts_at: "",
      ends_at: "",
      status: "active" as "active" | "sold" | "unsold",
      closed_at: null as string | null,
      current_bid: "0.00",
      bid_count: 0,
      winner: null as number | null,
    },
  };
}

/** Closes a generated lot: three in four sell, near the model's price (±15 %), never at retail. */
function close(random: Random, lot: ReturnType<typeof makeLot>, endsAt: number) {
  const row = lot.row;
  row.status = random.next() < 0.75 ? "sold" : "unsold";
  row.closed_at = new Date(endsAt).toISOString();
  if (row.status === "sold") {
    const retail = Number(row.estimated_value);
    const price = Math.min(
      Math.round((retail * 0.9) / 25) * 25,
      Math.max(100, Math.round((lot.auction * (0.85 + random.next() * 0.3)) / 25) * 25),
    );
    row.current_bid = price.toFixed(2);
    row.bid_count = random.int(2, 9);
    row.winner = random.int(0, RESULT_BIDDERS.length - 1);
  } else {
    row.bid_count = 0;
  }
}

function demoLots(at: number) {
  const random = prng(20261122);
  const thisYear = new Date(at).getUTCFullYear();
  const lots = Array.from({ length: DEMO_COUNT }, (_, i) => {
    const house = i % 3 === 2 ? "iaai" : "copart";
    const lot = makeLot(random, i, house, thisYear);
    lot.row.lot_number = String(house === "copart" ? 40_000_000 + i * 7919 : 38_000_000 + i * 6007);
    const phase = i % 10; // 0: starting soon, 1-5: live, 6-7: ending soon, 8-9: ended
    let startsAt: number;
    let endsAt: number;
    if (phase === 0) {
      startsAt = at + random.int(1, 48) * HOUR;
      endsAt = startsAt + random.int(24, 96) * HOUR;
    } else if (phase <= 5) {
      startsAt = at - random.int(1, 72) * HOUR;
      endsAt = at + random.int(2, 7 * 24) * HOUR + random.int(0, 59) * 60_000;
    } else if (phase <= 7) {
      startsAt = at - random.int(24, 96) * HOUR;
      endsAt = at + random.int(5, 55) * 60_000;
    } else {
      endsAt = at - random.int(1, 72) * HOUR;
      startsAt = endsAt - random.int(24, 96) * HOUR;
    }
    lot.row.starts_at = new Date(startsAt).toISOString();
    lot.row.ends_at = new Date(endsAt).toISOString();
    if (phase >= 8) close(random, lot, endsAt);
    return lot.row;
  });
  const results = Array.from({ length: RESULT_COUNT }, (_, k) => {
    const i = DEMO_COUNT + k;
    const house = k % 3 === 2 ? "iaai" : "copart";
    const lot = makeLot(random, i, house, thisYear);
    lot.row.lot_number = String(house === "copart" ? 39_000_000 + k * 4099 : 37_000_000 + k * 3011);
    const endsAt = at - random.int(3, 120) * DAY - random.int(0, 23) * HOUR;
    lot.row.starts_at = new Date(endsAt - random.int(3, 7) * DAY).toISOString();
    lot.row.ends_at = new Date(endsAt).toISOString();
    close(random, lot, endsAt);
    return lot.row;
  });
  return [...lots, ...results];
}

async function ensureBidders() {
  const ids: string[] = [];
  for (const [i, bidder] of RESULT_BIDDERS.entries()) {
    let user = await User.findOne({ where: { email: bidder.email } });
    if (!user) {
      user = await User.create({ ...bidder, oidcSubject: null });
      // they won lots up to four months ago: their accounts are older than that
      await sequelize.query(
        "UPDATE users SET created_at = now() - make_interval(days => $2), updated_at = now() WHERE id = $1",
        { bind: [user.id, 200 + i * 90] },
      );
    }
    ids.push(user.id);
  }
  return ids;
}

/**
 * The demo lots; existing (house, lot number) rows are left as they are. A sold lot gets its
 * bids (a short ladder up to the hammer price, the winner last) and a paid purchase.
 */
export async function seedDemoLots(at = Date.now()) {
  const bidders = await ensureBidders();
  const rows = demoLots(at).map(({ winner, ...row }) => ({
    ...row,
    high_bidder_id: winner === null ? null : bidders[winner],
    high_max: winner === null ? null : row.current_bid,
    runner_up_id: winner === null ? null : bidders[(winner + 1) % bidders.length],
  }));
  await sequelize.transaction(async (transaction) => {
    // demo lots seeded before they were marked are marked now (docs/decisions/2755)
    await sequelize.query(
      `UPDATE lots l SET demo = true FROM jsonb_to_recordset(:rows::jsonb)
                AS r(auction_house text, lot_number text)
        WHERE l.auction_house = r.auction_house AND l.lot_number = r.lot_number AND NOT l.demo`,
      { replacements: { rows: JSON.stringify(rows) }, transaction },
    );
    const inserted = await sequelize.query<{ id: string }>(
      `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, body_style, color,
          location_city, location_state, location_zip, yard_name, damage_type, primary_damage,
          secondary_damage, title_state, title_type, odometer, runs_drives, has_keys,
          run_condition, odometer_brand, condition_code, item_number, grid_row,
          estimated_value, repair_cost, image_urls, starts_at, ends_at, status, closed_at,
          current_bid, bid_count, high_bidder_id, high_max, demo)
       SELECT auction_house, lot_number, vin, year, make, model, body_style, color,
          location_city, location_state, location_zip, yard_name, damage_type, primary_damage,
          secondary_damage, title_state, title_type, odometer, runs_drives, has_keys,
          run_condition, odometer_brand, condition_code, item_number, grid_row,
          estimated_value, repair_cost, image_urls, starts_at, ends_at, status, closed_at,
          current_bid, bid_count, high_bidder_id, high_max, true
         FROM jsonb_to_recordset(:rows::jsonb) AS r(
          auction_house text, lot_number text, vin text, year int, make text, model text,
          body_style text, color text, location_city text, location_state text, location_zip text,
          yard_name text, damage_type text, primary_damage text, secondary_damage text,
          title_state text, title_type text, odometer int, runs_drives boolean, has_keys boolean,
          run_condition text, odometer_brand text, condition_code text, item_number text,
          grid_row text, estimated_value numeric, repair_cost numeric, image_urls text[], starts_at timestamptz,
          ends_at timestamptz, status text, closed_at timestamptz, current_bid numeric,
          bid_count int, high_bidder_id uuid, high_max numeric)
       ON CONFLICT (auction_house, lot_number) DO NOTHING
       RETURNING id`,
      { replacements: { rows: JSON.stringify(rows) }, type: QueryTypes.SELECT, transaction },
    );
    if (inserted.length === 0) return;
    const ids = inserted.map((r) => r.id);
    // the ladder: bid k of n is the hammer price less 6 % per step; the winner bids last, a
    // minute before the end (a bid at the very end would be refused by place_bid)
    await sequelize.query(
      `INSERT INTO bids (lot_id, user_id, amount, max_amount, created_at)
       SELECT l.id, CASE WHEN (l.bid_count - k) % 2 = 0 THEN l.high_bidder_id ELSE r.runner_up_id END,
              round(l.current_bid * (1 - 0.06 * (l.bid_count - k)) / 25) * 25,
              round(l.current_bid * (1 - 0.06 * (l.bid_count - k)) / 25) * 25,
              l.ends_at - (l.bid_count - k) * interval '47 minutes' - interval '1 minute'
         FROM lots l
         JOIN jsonb_to_recordset(:rows::jsonb) AS r(auction_house text, lot_number text,
              runner_up_id uuid) ON r.auction_house = l.auction_house AND r.lot_number = l.lot_number
         CROSS JOIN LATERAL generate_series(1, l.bid_count) AS k
        WHERE l.id = ANY(ARRAY[:ids]::bigint[]) AND l.status = 'sold'
        ORDER BY l.id, k`,
      { replacements: { rows: JSON.stringify(rows), ids }, transaction },
    );
    await sequelize.query(
      `INSERT INTO purchases (lot_id, user_id, amount, status, paid_at, created_at, updated_at)
       SELECT id, high_bidder_id, current_bid, 'paid', closed_at + interval '1 day', closed_at,
              closed_at + interval '1 day'
         FROM lots WHERE id = ANY(ARRAY[:ids]::bigint[]) AND status = 'sold'`,
      { replacements: { ids }, transaction },
    );
  });
  return rows.length;
}

/** Every (catalogue entry, model year) pair the scale seed cycles through, with its VIN parts. */
function scaleCombos(thisYear: number) {
  return catalogYears(thisYear).map(({ entry, year, head, tail, partial }) => {
    const age = thisYear - year;
    return {
      make: entry.make,
      model: entry.model,
      body: entry.bodyStyle,
      kind: entry.body,
      year,
      head,
      tail,
      partial,
      expected: Math.max(age, 0.5) * MILES_PER_YEAR,
      retail: retailValue({ msrp: entry.msrp, segment: entry.segment, age, mileage: null }),
    };
  });
}

/**
 * N scale lots generated inside PostgreSQL (no row-by-row round trips, no decoder calls): each
 * row takes a catalogue vehicle and model year, a serial, and its check digit computed in SQL
 * from the precomputed sum of the fixed characters. Lot numbers are S-prefixed so they never
 * collide with real feeds; a second run adds nothing.
 */
export async function seedScaleLots(count: number, log: (line: string) => void = () => undefined) {
  const combos = scaleCombos(new Date().getUTCFullYear());
  const colors = COLORS.flatMap(([name, weight]) => Array.from({ length: weight }, () => name));
  // the allowed (damage, title, runs) combinations, each repeated by its weight: a row picks one
  // slot, so the scale set keeps the same rules and shares as the demo (docs/decisions/2853)
  const total = COMBOS.reduce((sum, c) => sum + c.weight, 0);
  const slots = COMBOS.flatMap((combo) =>
    Array.from({ length: Math.max(1, Math.round((combo.weight / total) * 500)) }, () => combo),
  );
  const ref = {
    makes: combos.map((c) => c.make),
    models: combos.map((c) => c.model),
    bodies: combos.map((c) => c.body),
    kinds: combos.map((c) => c.kind),
    years: combos.map((c) => c.year),
    heads: combos.map((c) => c.head),
    tails: combos.map((c) => c.tail),
    partials: combos.map((c) => c.partial),
    expected: combos.map((c) => c.expected),
    retail: combos.map((c) => c.retail),
    colors,
    cities: YARDS.map((y) => y.city),
    states: YARDS.map((y) => y.state),
    zips: YARDS.map((y) => y.zip),
    yards: YARDS.map((y) => y.copart),
    damageTypes: slots.map((c) => c.type),
    damageTexts: slots.map((c) => c.damage),
    damageShares: slots.map((c) => DAMAGE_SHARE[c.damage] ?? 0.5),
    titles: slots.map((c) => c.title),
    runs: slots.map((c) => c.runs),
  };
  const arrays = Object.keys(ref)
    .map((key) => `ARRAY(SELECT jsonb_array_elements_text(:ref::jsonb -> '${key}')) AS ${key}`)
    .join(", ");
  const CHUNK = 50_000;
  const started = Date.now();
  await sequelize.transaction(async (transaction) => {
    // a bulk load is several times faster with the secondary indexes built once afterwards;
    // their definitions are read back from the catalog, so the migration stays the one source
    await sequelize.query(
      "SET LOCAL statement_timeout = 0; SET LOCAL maintenance_work_mem = '256MB'",
      { transaction },
    );
    const indexes = await sequelize.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
        WHERE schemaname = current_schema() AND tablename = 'lots'
          AND indexname NOT IN ('lots_pkey', 'lots_house_lot_number_key')`,
      { type: QueryTypes.SELECT, transaction },
    );
    for (const index of indexes)
      await sequelize.query(`DROP INDEX "${index.name}"`, { transaction });
    for (let from = 1; from <= count; from += CHUNK) {
      const to = Math.min(count, from + CHUNK - 1);
      await insertScaleChunk(from, to, transaction);
      log(
        `scale lots: ${to.toLocaleString("en-US")} / ${count.toLocaleString("en-US")} (${Date.now() - started} ms)`,
      );
    }
    log(`rebuilding ${indexes.length} indexes (${Date.now() - started} ms)`);
    for (const index of indexes) await sequelize.query(index.definition, { transaction });
    await sequelize.query("ANALYZE lots", { transaction }).catch(() => undefined);
  });

  async function insertScaleChunk(from: number, to: number, transaction: Transaction) {
    await sequelize.query(
      `WITH ref AS (SELECT ${arrays})
     INSERT INTO lots (auction_house, lot_number, vin, year, make, model, body_style, color,
        location_city, location_state, location_zip, yard_name, damage_type, primary_damage,
        title_state, title_type, odometer, runs_drives, has_keys, run_condition, estimated_value,
        repair_cost, image_urls, starts_at, ends_at)
     SELECT CASE WHEN g % 3 = 2 THEN 'iaai' ELSE 'copart' END,
            'S' || lpad(g::text, 9, '0'),
            ${vinSql("ref.heads[c]", "ref.tails[c]", "ref.partials[c]::int", "ser")},
            ref.years[c]::int, ref.makes[c], ref.models[c], ref.bodies[c], upper(ref.colors[k]),
            ref.cities[1 + y], ref.states[1 + y], ref.zips[1 + y], ref.yards[1 + y],
            ref.damageTypes[1 + d], ref.damageTexts[1 + d], ref.states[1 + y],
            ref.titles[1 + d], odo, ref.runs[1 + d]::boolean, g % 4 <> 0,
            CASE WHEN ref.runs[1 + d]::boolean THEN 'run_and_drive'
                 WHEN g % 2 = 0 THEN 'engine_start' ELSE 'stationary' END,
            greatest(1500, round(ref.retail[c]::numeric * mileage / 50) * 50),
            greatest(300, round(ref.retail[c]::numeric * mileage
              * (1 - ref.damageShares[1 + d]::numeric) * 0.55 / 50) * 50),
            ARRAY['/vehicle-art/' || ref.kinds[c] || '-' || ref.colors[k] || '.svg'],
            CASE WHEN g % 10 = 1 THEN now() + (1 + g % 48) * interval '1 hour'
                 ELSE now() - interval '3 days' END,
            CASE WHEN g % 10 = 1 THEN now() + (1 + g % 48) * interval '1 hour' + interval '2 days'
                 ELSE now() + interval '5 minutes' + (g % 20160) * interval '30 seconds' END
       FROM ref, generate_series(:from, :to) AS g,
            LATERAL (SELECT 1 + (g / 3) % :comboCount AS c, 1 + (g * 37) % :colorCount AS k,
                            (g / 11) % :yardCount AS y,
                            ((g::bigint * 2654435761) % :slotCount)::int AS d,
                            g % 1000000 AS ser) AS pick,
            LATERAL (SELECT (ref.expected[c]::numeric * (0.6 + (g % 80) / 100.0))::int + 500 AS odo)
              AS o,
            LATERAL (SELECT greatest(0.8, least(1.2,
                       1 - (odo - ref.expected[c]::numeric) / 100000 * 0.25)) AS mileage) AS m
     ON CONFLICT (auction_house, lot_number) DO NOTHING`,
      {
        replacements: {
          ref: JSON.stringify(ref),
          from,
          to,
          comboCount: combos.length,
          colorCount: colors.length,
          yardCount: YARDS.length,
          slotCount: slots.length,
        },
        transaction,
      },
    );
  }
}

export async function seedLots({ args, log }: SeedOptions) {
  const demo = await seedDemoLots();
  log(`demo lots: ${demo} (existing ones kept)`);
  const scale = scaleCount(args);
  if (scale > 0) {
    const started = Date.now();
    await seedScaleLots(scale, log);
    log(`scale lots: ${scale} in ${Date.now() - started} ms`);
  }
}
