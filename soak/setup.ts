// The soak's own world: a throwaway PostgreSQL cluster, the demo and scale seeds, the soak's
// actors (signed in through real session rows) and the lots they fight over.
import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import pg from "pg";
import { startThrowawayCluster } from "../tests/support/cluster";
import { createDatabase, migrateDatabase } from "../tests/support/databases";

export const SOAK_DOMAIN = "soak.bidyard.test";

export type Actor = { id: string; email: string; cookie: string };

export type HotLot = {
  id: string;
  /** what the bidders believe: updated from every answer */
  currentCents: number;
  endsAt: number;
  closed: boolean;
  snipes: number;
};

export type Cast = {
  bidders: Actor[];
  /** buyers with won, unpaid purchases (they never bid): they pay and ship */
  buyers: Actor[];
  onlookers: Actor[];
  sellers: Actor[];
  affiliates: Actor[];
  pendingAffiliates: Actor[];
  /** not yet verified: they send identity documents, which the admin opens */
  applicants: Actor[];
  admin: Actor;
};

export type Catalog = {
  lotIds: string[];
  endedLotIds: string[];
  listingIds: string[];
  basicPlanId: string;
  trialCampaignId: string;
};

export async function startDatabase(log: (line: string) => void) {
  const cluster = await startThrowawayCluster("soak");
  await createDatabase(cluster.urlFor("postgres"), "bidyard_soak");
  const url = cluster.urlFor("bidyard_soak");
  // the app's db module binds its pool (and env() caches) when first imported: set it first
  process.env.DATABASE_URL = url;
  await migrateDatabase(url);
  log(`throwaway cluster on port ${cluster.port}, database migrated`);
  return { cluster, url };
}

/** The demo seeds plus the scale sets, through the project's own seed code. */
export async function seed(url: string, lots: number, listings: number, log: (l: string) => void) {
  process.env.DATABASE_URL = url;
  const { runSeeds } = await import("../db/seeds/index");
  const { sequelize } = await import("../app/models/db.server");
  const started = Date.now();
  const args = [
    ...(lots > 0 ? ["--lots", String(lots)] : []),
    ...(listings > 0 ? ["--listings", String(listings)] : []),
  ];
  await runSeeds(args, () => undefined);
  await sequelize.query("ANALYZE");
  await sequelize.close();
  log(
    `seeded demo data + ${lots.toLocaleString("en-US")} scale lots + ` +
      `${listings.toLocaleString("en-US")} bulk listings in ${Date.now() - started} ms`,
  );
}

export async function createCast(
  db: pg.Pool,
  secret: string,
  sizes: {
    bidders: number;
    buyers: number;
    onlookers: number;
    sellers: number;
    affiliates: number;
    applicants: number;
  },
): Promise<Cast> {
  const cookie = createCookie("__session", { secrets: [secret], path: "/" });
  const tag = randomBytes(3).toString("hex");
  async function actor(
    name: string,
    fields: { verified?: boolean; role?: string; accountType?: string } = {},
  ): Promise<Actor> {
    const email = `${name}-${tag}@${SOAK_DOMAIN}`;
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO users (email, first_name, last_name, verified, role, account_type)
       VALUES ($1, 'Soak', $2, $3, $4, $5) RETURNING id`,
      [email, name, fields.verified ?? false, fields.role ?? "user", fields.accountType ?? "buyer"],
    );
    const token = randomBytes(32).toString("base64url");
    await db.query(
      "INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')",
      [createHash("sha256").update(token).digest("hex"), rows[0].id],
    );
    return { id: rows[0].id, email, cookie: (await cookie.serialize(token)).split(";")[0] };
  }
  async function affiliate(i: number, status: "approved" | "pending") {
    const a = await actor(`${status === "approved" ? "carrier" : "applicant"}${i}`, {
      verified: true,
      accountType: "affiliate",
    });
    await db.query(
      `INSERT INTO affiliate_applications (user_id, company_name, service_types, business_phone,
         business_email, service_areas, status, reviewed_at)
       VALUES ($1, $2, ARRAY['shipping', 'export'], '214-555-0100', $3, ARRAY['Texas'], $4,
         CASE WHEN $4 = 'approved' THEN now() END)`,
      [a.id, `Soak Carrier ${i}`, a.email, status],
    );
    return a;
  }
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  return {
    bidders: await Promise.all(
      range(sizes.bidders).map((i) => actor(`bidder${i}`, { verified: true })),
    ),
    buyers: await Promise.all(
      range(sizes.buyers).map((i) => actor(`buyer${i}`, { verified: true })),
    ),
    onlookers: await Promise.all(range(sizes.onlookers).map((i) => actor(`onlooker${i}`))),
    sellers: await Promise.all(
      range(sizes.sellers).map((i) => actor(`seller${i}`, { verified: i % 2 === 0 })),
    ),
    affiliates: await Promise.all(range(sizes.affiliates).map((i) => affiliate(i, "approved"))),
    pendingAffiliates: await Promise.all(range(2).map((i) => affiliate(i, "pending"))),
    applicants: await Promise.all(range(sizes.applicants).map((i) => actor(`kyc-applicant${i}`))),
    admin: await actor("admin", { verified: true, role: "admin" }),
  };
}

const HOT_MODELS: Array<[string, string, string, string, string]> = [
  ["Toyota", "Camry", "SEDAN", "Dallas", "TX"],
  ["Honda", "Civic", "SEDAN", "Houston", "TX"],
  ["Ford", "F-150", "PICKUP", "Phoenix", "AZ"],
  ["Chevrolet", "Silverado", "PICKUP", "Atlanta", "GA"],
  ["Jeep", "Wrangler", "SUV", "Miami", "FL"],
  ["Tesla", "Model 3", "SEDAN", "Los Angeles", "CA"],
];

/**
 * The lots the bidders fight over. `closing` of them end spread over the run (from 15% to 90%
 * of it) so the closer closes lots under load; the rest stay open past the end.
 */
export async function createHotLots(
  db: pg.Pool,
  runMs: number,
  closing: number,
  open: number,
): Promise<HotLot[]> {
  const lots: HotLot[] = [];
  const total = closing + open;
  for (let i = 0; i < total; i++) {
    const endsInMs =
      i < closing
        ? Math.round(runMs * (0.15 + (0.75 * i) / Math.max(1, closing - 1)))
        : runMs + 3_600_000;
    const [make, model, body, city, state] = HOT_MODELS[i % HOT_MODELS.length];
    const { rows } = await db.query<{ id: string; ends_at: Date }>(
      `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, body_style, color,
         location_city, location_state, yard_name, damage_type, primary_damage, title_type,
         odometer, runs_drives, has_keys, estimated_value, repair_cost, image_urls, starts_at,
         ends_at)
       VALUES ($1, $2, $3, 2019, $4, $5, $6, 'BLUE', $7, $8, $9, 'collision', 'FRONT END',
         'salvage', 48000, true, true, 18000, 4200, ARRAY['/images/lots/sedan-orange.svg'],
         now() - interval '2 days', now() + $10 * interval '1 millisecond')
       RETURNING id, ends_at`,
      [
        i % 2 ? "iaai" : "copart",
        `SOAK${randomBytes(4).toString("hex")}`,
        `SOAK${randomBytes(6).toString("hex").toUpperCase()}`.slice(0, 17),
        make,
        model,
        body,
        city,
        state,
        `Copart ${city}`,
        endsInMs,
      ],
    );
    lots.push({
      id: String(rows[0].id),
      currentCents: 0,
      endsAt: new Date(rows[0].ends_at).getTime(),
      closed: false,
      snipes: 0,
    });
  }
  return lots;
}

/** A won lot's purchase, as the buyer knows it (`paid` once the app confirmed the payment). */
export type WonPurchase = {
  id: string;
  lotId: string;
  buyer: Actor;
  paid: boolean;
  /** a visit is paying it or asking for its transport right now */
  busy: boolean;
  shipping: boolean;
};

/**
 * Won, unpaid purchases: for each buyer, lots (hammer prices in dollars) that ended a moment ago
 * with the buyer as the only bidder. The running app's own closer closes them, writing the
 * purchase, its invoice (the purchases module's invoiceSale, today's fee schedules) and the
 * "You won", exactly as for any sale; this waits until every invoice is there.
 */
export async function createWonPurchases(
  db: pg.Pool,
  wins: Array<{ buyer: Actor; hammers: number[] }>,
  timeoutMs = 60_000,
): Promise<WonPurchase[]> {
  const owner = new Map<string, Actor>();
  for (const [i, { buyer, hammers }] of wins.entries()) {
    for (const [j, hammer] of hammers.entries()) {
      const [make, model, body, city, state] = HOT_MODELS[(i + j) % HOT_MODELS.length];
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, body_style, color,
           location_city, location_state, yard_name, damage_type, primary_damage, title_type,
           odometer, runs_drives, has_keys, estimated_value, repair_cost, image_urls, starts_at,
           ends_at, current_bid, bid_count, high_bidder_id, high_max)
         VALUES ($1, $2, $3, 2018, $4, $5, $6, 'WHITE', $7, $8, $9, 'collision', 'REAR END',
           $10, 61000, true, true, 12000, 3100, ARRAY['/images/lots/sedan-orange.svg'],
           now() - interval '2 days', now() - interval '1 second', $11, 1, $12, $11)
         RETURNING id`,
        [
          j % 2 ? "iaai" : "copart",
          `SOAKWON${randomBytes(4).toString("hex")}`,
          `SOAKW${randomBytes(6).toString("hex").toUpperCase()}`.slice(0, 17),
          make,
          model,
          body,
          city,
          state,
          `Copart ${city}`,
          j % 2 ? "salvage" : "clean",
          hammer,
          buyer.id,
        ],
      );
      await db.query(
        `INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, created_at)
         VALUES ($1, $2, $3, $3, false, now() - interval '1 hour')`,
        [rows[0].id, buyer.id, hammer],
      );
      owner.set(String(rows[0].id), buyer);
    }
  }
  const lotIds = [...owner.keys()];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ id: string; lot_id: string }>(
      `SELECT id::text, lot_id::text FROM purchases
        WHERE lot_id = ANY($1::bigint[]) AND due_at IS NOT NULL`,
      [lotIds],
    );
    if (rows.length === lotIds.length)
      return rows.map((r) => ({
        id: r.id,
        lotId: r.lot_id,
        buyer: owner.get(r.lot_id)!,
        paid: false,
        busy: false,
        shipping: false,
      }));
    if (Date.now() > deadline)
      throw new Error(`the closer invoiced ${rows.length} of ${lotIds.length} won lots in time`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

export async function loadCatalog(db: pg.Pool): Promise<Catalog> {
  const ids = async (sql: string) =>
    (await db.query<{ id: string }>(sql)).rows.map((r) => String(r.id));
  const [basic] = await ids("SELECT id FROM membership_plans WHERE code = 'basic-monthly'");
  const [campaign] = await ids("SELECT id FROM campaigns WHERE code = 'welcome-trial'");
  return {
    lotIds: await ids("SELECT id FROM lots WHERE status = 'active' ORDER BY random() LIMIT 500"),
    endedLotIds: await ids(
      "SELECT id FROM lots WHERE status <> 'active' ORDER BY random() LIMIT 50",
    ),
    listingIds: await ids(
      "SELECT id FROM listings WHERE status = 'active' ORDER BY random() LIMIT 500",
    ),
    basicPlanId: basic,
    trialCampaignId: campaign,
  };
}
