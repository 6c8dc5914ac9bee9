// Demo community listings: a few hundred varied vehicles from several sellers in the US, Canada
// and Mexico, with locally served pictures (public/images/listings). Idempotent: it fills in only
// what is missing. `npm run db:seed -- --listings 100000` also tops a bulk seller up to that many
// listings in one INSERT … SELECT generate_series, for the benchmark.
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "../../app/models/db.server";
import { User } from "../../app/models/user.server";
import type { BodyType } from "../../app/services/listings/fields";
import { vehicleArtUrl } from "../../app/services/vehicles/drawing";
import { retailValue } from "../../app/services/vehicles/valuation";
import { CONDITION_SHARE, fittingClaims, type Condition } from "./believable";
import type { SeedOptions } from "./index";
import { CATALOG, COLORS, catalogYears, vinFor, vinSql, type CatalogEntry } from "./lot-catalog";

export const DEMO_SELLERS = [
  { email: "maria.seller@bidyard.test", firstName: "Maria", lastName: "Lopez", verified: true },
  { email: "dave.seller@bidyard.test", firstName: "Dave", lastName: "Miller", verified: true },
  { email: "chloe.seller@bidyard.test", firstName: "Chloe", lastName: "Tremblay", verified: true },
  { email: "raj.seller@bidyard.test", firstName: "Raj", lastName: "Patel", verified: false },
  { email: "sofia.seller@bidyard.test", firstName: "Sofia", lastName: "Hernandez", verified: true },
  { email: "tom.seller@bidyard.test", firstName: "Tom", lastName: "Nguyen", verified: false },
  { email: "ana.seller@bidyard.test", firstName: "Ana", lastName: "Garcia", verified: true },
  { email: "liam.seller@bidyard.test", firstName: "Liam", lastName: "O'Brien", verified: true },
] as const;

const BULK_SELLER = {
  email: "bulk.seller@bidyard.test",
  firstName: "Bulk",
  lastName: "Seller",
  verified: true,
};

export const DEMO_LISTING_COUNT = 320;

/** The catalogue's cars a private seller would list (no minivans: not a listing body type). */
const LISTABLE = CATALOG.filter((entry) => entry.body !== "van");
const listingBody = (entry: CatalogEntry): BodyType =>
  entry.body === "wagon" ? "suv" : (entry.body as BodyType);

const PLACES: Array<{ country: "US" | "CA" | "MX"; state: string; city: string; zip: string }> = [
  { country: "US", state: "TX", city: "Houston", zip: "77002" },
  { country: "US", state: "TX", city: "Dallas", zip: "75201" },
  { country: "US", state: "TX", city: "Austin", zip: "78701" },
  { country: "US", state: "CA", city: "Los Angeles", zip: "90012" },
  { country: "US", state: "CA", city: "Fresno", zip: "93721" },
  { country: "US", state: "FL", city: "Miami", zip: "33130" },
  { country: "US", state: "FL", city: "Orlando", zip: "32801" },
  { country: "US", state: "NY", city: "Buffalo", zip: "14202" },
  { country: "US", state: "IL", city: "Chicago", zip: "60601" },
  { country: "US", state: "AZ", city: "Phoenix", zip: "85004" },
  { country: "US", state: "GA", city: "Atlanta", zip: "30303" },
  { country: "US", state: "WA", city: "Seattle", zip: "98101" },
  { country: "CA", state: "ON", city: "Toronto", zip: "M5H 2N2" },
  { country: "CA", state: "ON", city: "Ottawa", zip: "K1P 1J1" },
  { country: "CA", state: "BC", city: "Vancouver", zip: "V6B 1A1" },
  { country: "CA", state: "AB", city: "Calgary", zip: "T2P 1J9" },
  { country: "CA", state: "QC", city: "Montreal", zip: "H2Y 1C6" },
  { country: "MX", state: "Jalisco", city: "Guadalajara", zip: "44100" },
  { country: "MX", state: "Nuevo León", city: "Monterrey", zip: "64000" },
  { country: "MX", state: "CDMX", city: "Ciudad de México", zip: "06000" },
  { country: "MX", state: "Puebla", city: "Puebla", zip: "72000" },
];

const CURRENCY = { US: "USD", CA: "CAD", MX: "MXN" } as const;
/** Local currency per US dollar the demo prices were set at (the test reads prices back with it). */
export const SEED_RATES = { USD: 1, CAD: 1.37, MXN: 17.2 } as const;
const RATE = { US: SEED_RATES.USD, CA: SEED_RATES.CAD, MX: SEED_RATES.MXN } as const;
const CONDITIONS = ["excellent", "good", "good", "fair", "poor"] as const;
const INTERIORS = ["Black", "Gray", "Beige", "Tan"];
/** Models sold with a manual gearbox in these years (a few sellers have one). */
const MANUAL_OFFERED = new Set([
  "Civic",
  "Mustang",
  "Camaro",
  "Challenger",
  "Wrangler",
  "Tacoma",
  "MX-5 Miata",
  "Jetta",
  "Fit",
]);
/** Title taglines; each is used only where it is true of the car (./believable's CLAIMS). */
const TAGLINES = [
  "One owner",
  "Low miles",
  "Clean title",
  "Runs great",
  "Well maintained",
  "Needs some work",
  "Highway miles",
  "Garage kept",
  "New tires",
  "Priced to sell",
  "Like new",
  "Sold as is",
];
const NOTES = [
  "Service records available.",
  "Non-smoker, no pets.",
  "Recent oil change and brakes.",
  "Minor dents on the rear bumper.",
  "Cold A/C, Bluetooth and backup camera.",
  "Sunroof and heated seats.",
  "Check engine light on, sold as is.",
  "New battery this spring.",
  "Tow package included.",
  "Second set of winter tires included.",
  "Windshield replaced last year.",
  "Both keys and the owner's manual.",
];
const DRIVE_WORDS = {
  FWD: "front-wheel drive",
  RWD: "rear-wheel drive",
  AWD: "all-wheel drive",
  "4WD": "four-wheel drive",
};
const colorName = (paint: string) => paint[0].toUpperCase() + paint.slice(1);
/** The claim a note makes, in ./believable's words ("Check engine light on, sold as is." → …). */
const claimIn = (note: string) =>
  note.startsWith("Check engine light")
    ? "Check engine light on"
    : note.startsWith("Minor dents")
      ? "Minor dents"
      : note;

/** A small deterministic generator, so the demo data is the same on every machine. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * The seller's account, made on first run as if it had joined `joinedDaysAgo` days ago: no
 * listing is older than the account it was posted from ("Member since" on its page).
 */
async function ensureSeller(
  seller: { email: string; firstName: string; lastName: string; verified: boolean },
  joinedDaysAgo: number,
) {
  const existing = await User.findOne({ where: { email: seller.email } });
  if (existing) return existing;
  const user = await User.create({ ...seller, oidcSubject: null });
  await sequelize.query(
    "UPDATE users SET created_at = now() - make_interval(days => $2), updated_at = now() WHERE id = $1",
    { bind: [user.id, joinedDaysAgo] },
  );
  return user;
}

function demoListings(sellerIds: string[], count: number) {
  const next = random(20261122);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const weighted = (list: ReadonlyArray<readonly [string, number]>) => {
    let roll = next() * list.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [value, weight] of list) if ((roll -= weight) < 0) return value;
    return list[list.length - 1][0];
  };
  const thisYear = new Date().getUTCFullYear();
  const rows = [];
  // the notes that fit a car's condition (a "check engine light" is no excellent car's)
  const notesFor = (situation: Parameters<typeof fittingClaims>[0]) =>
    NOTES.filter((note) => fittingClaims(situation, [claimIn(note)]).length > 0);
  for (let i = 0; i < count; i++) {
    const entry = pick(LISTABLE);
    const { make, model } = entry;
    const bodyType = listingBody(entry);
    const place = PLACES[i % 4 === 3 ? 12 + Math.floor(next() * 9) : Math.floor(next() * 12)];
    const year =
      entry.years[0] +
      Math.floor(next() * (Math.min(entry.years[1], thisYear) - entry.years[0] + 1));
    const condition: Condition = pick(CONDITIONS);
    const age = thisYear - year;
    const mileage =
      next() < 0.05 ? null : Math.round(((age + 0.5) * (7000 + next() * 9000)) / 100) * 100;
    // the asking price: the model's value for this car and its miles, by condition, a seller's
    // own rounding of ±6 % (docs/decisions/2853)
    const usd =
      retailValue({ msrp: entry.msrp, segment: entry.segment, age, mileage }) *
      CONDITION_SHARE[condition] *
      (0.94 + next() * 0.12);
    const price = (Math.round((usd * RATE[place.country]) / 50) * 50).toFixed(2);
    const paint = weighted(COLORS);
    const situation = { condition, mileage, year, thisYear };
    const notes = notesFor(situation);
    const first = Math.floor(next() * notes.length);
    const second = (first + 1 + Math.floor(next() * (notes.length - 1))) % notes.length;
    const miles = mileage === null ? "" : ` ${mileage.toLocaleString("en-US")} miles.`;
    rows.push({
      userId: sellerIds[i % sellerIds.length],
      title: `${year} ${make} ${model} · ${pick(fittingClaims(situation, TAGLINES))}`,
      description: `${colorName(paint)} ${year} ${make} ${model}, ${DRIVE_WORDS[entry.drive]}, in ${condition} condition.${miles} ${notes[first]} ${notes[second]}`,
      make,
      model,
      year,
      mileage,
      price,
      currency: CURRENCY[place.country],
      condition,
      fuelType: entry.fuel,
      transmission: MANUAL_OFFERED.has(model) && next() < 0.25 ? "manual" : "automatic",
      drivetrain: entry.drive,
      exteriorColor: colorName(paint),
      interiorColor: pick(INTERIORS),
      bodyType,
      vin: vinFor(entry, year, 500_000 + i * 13),
      country: place.country,
      state: place.state,
      city: place.city,
      zipCode: place.zip,
      featured: next() < 0.08,
      status: next() < 0.06 ? "sold" : "active",
      createdAt: new Date(Date.now() - Math.floor(next() * 120 * 24 * 3600 * 1000)),
      photos: next() < 0.1 ? [] : [vehicleArtUrl(entry.body, paint)],
    });
  }
  return rows;
}

async function seedDemoListings(log: (line: string) => void) {
  const sellers = [];
  // listings go back 120 days; their sellers joined between 7 months and 3 years ago
  for (const [i, seller] of DEMO_SELLERS.entries())
    sellers.push(await ensureSeller(seller, 210 + ((i * 137) % 900)));
  const sellerIds = sellers.map((s) => s.id);
  const [{ count }] = await sequelize.query<{ count: string }>(
    "SELECT count(*) AS count FROM listings WHERE user_id = ANY($1::uuid[])",
    { bind: [sellerIds], type: QueryTypes.SELECT },
  );
  if (Number(count) > 0) return;
  const rows = demoListings(sellerIds, DEMO_LISTING_COUNT);
  // Two statements for the lot: ids are taken from the sequence first so photos can refer to them.
  await sequelize.transaction(async (transaction) => {
    const ids = await sequelize.query<{ id: string }>(
      "SELECT nextval('listings_id_seq')::text AS id FROM generate_series(1, $1)",
      { bind: [rows.length], type: QueryTypes.SELECT, transaction },
    );
    const listings = rows.map(({ photos: _photos, ...row }, i) => ({ ...row, id: ids[i].id }));
    await sequelize.query(
      `INSERT INTO listings (id, user_id, title, description, make, model, year, mileage, price,
         currency, condition, fuel_type, transmission, drivetrain, exterior_color, interior_color,
         body_type, vin, country, state, city, zip_code, featured, status, sold_at, created_at,
         updated_at)
       SELECT r.id, r."userId", r.title, r.description, r.make, r.model, r.year, r.mileage,
              r.price, r.currency, r.condition, r."fuelType", r.transmission, r.drivetrain,
              r."exteriorColor", r."interiorColor", r."bodyType", r.vin, r.country, r.state, r.city,
              r."zipCode", r.featured, r.status,
              CASE WHEN r.status = 'sold' THEN r."createdAt" END, r."createdAt", r."createdAt"
         FROM jsonb_to_recordset($1::jsonb) AS r(
           id bigint, "userId" uuid, title text, description text, make text, model text,
           year integer, mileage integer, price numeric, currency text, condition text,
           "fuelType" text, transmission text, drivetrain text, "exteriorColor" text,
           "interiorColor" text, "bodyType" text, vin text, country text, state text, city text,
           "zipCode" text, featured boolean, status text, "createdAt" timestamptz)`,
      { bind: [JSON.stringify(listings)], transaction },
    );
    const photos = rows.flatMap((row, i) =>
      row.photos.map((url, position) => ({ listingId: ids[i].id, position, url })),
    );
    await sequelize.query(
      `INSERT INTO listing_photos (listing_id, position, url, thumbnail_url, content_type, width,
         height)
       SELECT p."listingId", p.position, p.url, p.url, 'image/svg+xml', 440, 330
         FROM jsonb_to_recordset($1::jsonb) AS p("listingId" bigint, position smallint, url text)`,
      { bind: [JSON.stringify(photos)], transaction },
    );
  });
  log(`  ${rows.length} demo listings from ${sellers.length} sellers`);
}

/**
 * Tops the bulk seller up to `target` listings with INSERT … SELECT generate_series, in chunks of
 * 25,000 rows each in its own transaction without the pool's statement timeout (the benchmark's
 * data).
 */
export async function seedBulkListings(target: number, log: (line: string) => void = () => {}) {
  const seller = await ensureSeller(BULK_SELLER, 400);
  const [{ count }] = await sequelize.query<{ count: string }>(
    "SELECT count(*) AS count FROM listings WHERE user_id = $1",
    { bind: [seller.id], type: QueryTypes.SELECT },
  );
  const missing = target - Number(count);
  if (missing <= 0) return;
  const CHUNK = 25_000;
  for (let start = Number(count); start < target; start += CHUNK) {
    const rows = Math.min(CHUNK, target - start);
    await sequelize.transaction(async (transaction) => {
      await sequelize.query("SET LOCAL statement_timeout = 0", { transaction });
      await insertBulkChunk(seller.id, start, rows, transaction);
    });
    log(`  bulk listings: ${start + rows} of ${target}`);
  }
  await sequelize.query("ANALYZE listings");
  log(`  ${missing} bulk listings (bulk seller now has ${target})`);
}

async function insertBulkChunk(
  sellerId: string,
  start: number,
  rows: number,
  transaction: Transaction,
) {
  const thisYear = new Date().getUTCFullYear();
  const combos = catalogYears(thisYear).filter(({ entry }) => entry.body !== "van");
  await sequelize.query(
    `WITH src AS (
       SELECT i::bigint AS i,
              $2::text[] AS makes, $3::text[] AS models, $4::text[] AS bodies,
              $5::text[] AS countries, $6::text[] AS states, $7::text[] AS cities,
              $10::int[] AS years, $11::text[] AS heads, $12::text[] AS tails,
              $13::int[] AS partials, $14::numeric[] AS prices, $15::text[] AS drives,
              $16::text[] AS fuels
         FROM generate_series($8::int + 1, $8::int + $9::int) AS i
     ), picked AS (
       SELECT i, 1 + (i * 7919) % array_length(makes, 1) AS m, 1 + (i * 104729) % array_length(cities, 1) AS p,
              makes, models, bodies, countries, states, cities, heads, tails, partials, prices,
              drives, fuels, years,
              (ARRAY['excellent', 'good', 'fair', 'poor'])[1 + (i * 13) % 4] AS condition
         FROM src
     ), driven AS (
       SELECT picked.*, expected,
              greatest(500, (expected * (0.6 + ((i * 37) % 80) / 100.0))::int) AS mileage
         FROM picked,
              LATERAL (SELECT greatest($17::int - years[m], 0.5) * 12000 AS expected) AS e
     )
     INSERT INTO listings (user_id, title, description, make, model, year, mileage, price, currency,
       condition, fuel_type, transmission, drivetrain, body_type, vin, country, state, city,
       featured, created_at, updated_at)
     SELECT $1, years[m] || ' ' || makes[m] || ' ' || models[m] || ' #' || i,
            'Bulk listing ' || i || ' for load tests. ' || condition || ' condition.',
            makes[m], models[m], years[m], mileage,
            -- the model's value for the car's miles and condition, ±8 %, in the local currency
            -- (the same rules as the demo listings: docs/decisions/2853)
            (greatest(1500, round(prices[m] * greatest(0.8, least(1.2,
                1 - (mileage - expected) / 100000.0 * 0.25)) / 50) * 50)
              * (CASE condition WHEN 'excellent' THEN $18::numeric WHEN 'good' THEN $19::numeric
                   WHEN 'fair' THEN $20::numeric ELSE $21::numeric END)
              * (0.92 + (i % 17) / 100.0)
              * (CASE countries[p] WHEN 'CA' THEN $22::numeric WHEN 'MX' THEN $23::numeric
                   ELSE 1 END))::numeric(12, 0)::numeric(12, 2),
            CASE countries[p] WHEN 'CA' THEN 'CAD' WHEN 'MX' THEN 'MXN' ELSE 'USD' END,
            condition, fuels[m], 'automatic', drives[m], bodies[m],
            ${vinSql("heads[m]", "tails[m]", "partials[m]", "(500000 + i) % 1000000")},
            countries[p], states[p], cities[p],
            i % 50 = 0, now() - make_interval(secs => i * 37), now()
       FROM driven`,
    {
      bind: [
        sellerId,
        combos.map((c) => c.entry.make),
        combos.map((c) => c.entry.model),
        combos.map((c) => listingBody(c.entry)),
        PLACES.map((p) => p.country),
        PLACES.map((p) => p.state),
        PLACES.map((p) => p.city),
        start,
        rows,
        combos.map((c) => c.year),
        combos.map((c) => c.head),
        combos.map((c) => c.tail),
        combos.map((c) => c.partial),
        combos.map((c) =>
          retailValue({
            msrp: c.entry.msrp,
            segment: c.entry.segment,
            age: thisYear - c.year,
            mileage: null,
          }),
        ),
        combos.map((c) => c.entry.drive),
        combos.map((c) => c.entry.fuel),
        thisYear,
        CONDITION_SHARE.excellent,
        CONDITION_SHARE.good,
        CONDITION_SHARE.fair,
        CONDITION_SHARE.poor,
        SEED_RATES.CAD,
        SEED_RATES.MXN,
      ],
      transaction,
    },
  );
}

function bulkTarget(args: string[]) {
  const index = args.indexOf("--listings");
  const value =
    index >= 0 ? args[index + 1] : args.find((a) => a.startsWith("--listings="))?.split("=")[1];
  if (value === undefined) return null;
  const target = Number(value);
  if (!Number.isInteger(target) || target < 0 || target > 5_000_000)
    throw new Error(`--listings needs a whole number up to 5,000,000, got "${value}"`);
  return target;
}

export async function seedListings({ args, log }: SeedOptions) {
  await seedDemoListings(log);
  const target = bulkTarget(args);
  if (target !== null) await seedBulkListings(target, log);
}
