// Demo lots (a few hundred, every badge) and, with --lots N, the scale set in one INSERT … SELECT.
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "../../app/models/db.server";
import type { SeedOptions } from "./index";
import { CATALOG, COLORS, DAMAGES, IMAGES, TITLES, YARDS, prng } from "./lot-catalog";

const DEMO_COUNT = 320;
const HOUR = 60 * 60 * 1000;

export function scaleCount(args: string[]) {
  const index = args.indexOf("--lots");
  if (index === -1) return 0;
  const count = Number(args[index + 1]);
  if (!Number.isInteger(count) || count < 1 || count > 5_000_000)
    throw new Error("--lots needs a whole number between 1 and 5,000,000");
  return count;
}

function demoLots(at: number) {
  const random = prng(20261122);
  return Array.from({ length: DEMO_COUNT }, (_, i) => {
    const house = i % 3 === 2 ? "iaai" : "copart";
    const entry = random.pick(CATALOG);
    const yard = random.pick(YARDS);
    const damage = random.pick(DAMAGES);
    const year = random.int(2008, 2024);
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
    const estimate = random.int(20, 600) * 100;
    const images = IMAGES[entry.body] ?? IMAGES.sedan;
    const first = random.int(0, images.length - 1);
    return {
      auction_house: house,
      lot_number: String(house === "copart" ? 40_000_000 + i * 7919 : 38_000_000 + i * 6007),
      vin: random.vin(),
      year,
      make: entry.make,
      model: random.pick(entry.models),
      body_style: entry.body.toUpperCase(),
      color: random.pick(COLORS).toUpperCase(),
      location_city: yard.city,
      location_state: yard.state,
      location_zip: yard.zip,
      yard_name: house === "copart" ? yard.copart : yard.iaai,
      damage_type: damage.type,
      primary_damage: damage.text,
      secondary_damage: random.next() < 0.4 ? random.pick(DAMAGES).text : null,
      title_state: yard.state,
      title_type: random.pick(TITLES),
      odometer: random.int(5_000, 220_000),
      runs_drives: random.next() < 0.55,
      has_keys: random.next() < 0.75,
      estimated_value: estimate.toFixed(2),
      repair_cost: (random.int(5, Math.max(6, estimate / 150)) * 100).toFixed(2),
      image_urls: [0, 1, 2].map((k) => `/images/lots/${images[(first + k) % images.length]}.svg`),
      starts_at: new Date(startsAt).toISOString(),
      ends_at: new Date(endsAt).toISOString(),
      status: phase >= 8 ? "unsold" : "active",
      closed_at: phase >= 8 ? new Date(endsAt).toISOString() : null,
    };
  });
}

/** The demo lots; existing (house, lot number) rows are left as they are. */
export async function seedDemoLots(at = Date.now()) {
  const rows = demoLots(at);
  await sequelize.query(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, body_style, color,
        location_city, location_state, location_zip, yard_name, damage_type, primary_damage,
        secondary_damage, title_state, title_type, odometer, runs_drives, has_keys,
        estimated_value, repair_cost, image_urls, starts_at, ends_at, status, closed_at)
     SELECT auction_house, lot_number, vin, year, make, model, body_style, color,
        location_city, location_state, location_zip, yard_name, damage_type, primary_damage,
        secondary_damage, title_state, title_type, odometer, runs_drives, has_keys,
        estimated_value, repair_cost, image_urls, starts_at, ends_at, status, closed_at
       FROM jsonb_to_recordset(:rows::jsonb) AS r(
        auction_house text, lot_number text, vin text, year int, make text, model text,
        body_style text, color text, location_city text, location_state text, location_zip text,
        yard_name text, damage_type text, primary_damage text, secondary_damage text,
        title_state text, title_type text, odometer int, runs_drives boolean, has_keys boolean,
        estimated_value numeric, repair_cost numeric, image_urls text[], starts_at timestamptz,
        ends_at timestamptz, status text, closed_at timestamptz)
     ON CONFLICT (auction_house, lot_number) DO NOTHING`,
    { replacements: { rows: JSON.stringify(rows) } },
  );
  return rows.length;
}

/**
 * N scale lots generated inside PostgreSQL (no row-by-row round trips). Lot numbers are
 * S-prefixed so they never collide with real feeds; a second run adds nothing.
 */
export async function seedScaleLots(count: number, log: (line: string) => void = () => undefined) {
  const width = Math.max(...CATALOG.map((c) => c.models.length));
  const ref = {
    makes: CATALOG.map((c) => c.make),
    models: CATALOG.flatMap((c) =>
      Array.from({ length: width }, (_, i) => c.models[i % c.models.length]),
    ),
    bodies: CATALOG.map((c) => c.body.toUpperCase()),
    images: CATALOG.flatMap((c) => IMAGES[c.body] ?? IMAGES.sedan),
    colors: COLORS.map((c) => c.toUpperCase()),
    cities: YARDS.map((y) => y.city),
    states: YARDS.map((y) => y.state),
    zips: YARDS.map((y) => y.zip),
    yards: YARDS.map((y) => y.copart),
    damageTypes: DAMAGES.map((d) => d.type),
    damageTexts: DAMAGES.map((d) => d.text),
    titles: TITLES,
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
        title_state, title_type, odometer, runs_drives, has_keys, estimated_value, repair_cost,
        image_urls, starts_at, ends_at)
     SELECT CASE WHEN g % 3 = 2 THEN 'iaai' ELSE 'copart' END,
            'S' || lpad(g::text, 9, '0'),
            upper(substr(md5(g::text), 1, 8) || substr(md5((g * 7)::text), 1, 9)),
            2005 + (g * 7) % 20,
            ref.makes[1 + m], ref.models[1 + m * :width + (g / 17) % :width], ref.bodies[1 + m],
            ref.colors[1 + g % 8],
            ref.cities[1 + y], ref.states[1 + y], ref.zips[1 + y], ref.yards[1 + y],
            ref.damageTypes[1 + d], ref.damageTexts[1 + d], ref.states[1 + y],
            ref.titles[1 + (g / 5) % :titleCount],
            (g * 37) % 220000 + 1000,
            g % 2 = 0, g % 4 <> 0,
            ((g * 53) % 580 + 20) * 100,
            ((g * 29) % 120 + 5) * 100,
            ARRAY['/images/lots/' || ref.images[1 + m * 4 + g % 4] || '.svg'],
            CASE WHEN g % 10 = 1 THEN now() + (1 + g % 48) * interval '1 hour'
                 ELSE now() - interval '3 days' END,
            CASE WHEN g % 10 = 1 THEN now() + (1 + g % 48) * interval '1 hour' + interval '2 days'
                 ELSE now() + interval '5 minutes' + (g % 20160) * interval '30 seconds' END
       FROM ref, generate_series(:from, :to) AS g,
            LATERAL (SELECT (g / 3) % :makeCount AS m, (g / 11) % :yardCount AS y,
                            (g / 13) % :damageCount AS d) AS pick
     ON CONFLICT (auction_house, lot_number) DO NOTHING`,
      {
        replacements: {
          ref: JSON.stringify(ref),
          from,
          to,
          width,
          makeCount: ref.makes.length,
          yardCount: YARDS.length,
          damageCount: DAMAGES.length,
          titleCount: TITLES.length,
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
