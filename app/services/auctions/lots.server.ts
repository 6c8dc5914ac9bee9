import { QueryTypes, type Transaction } from "sequelize";
import { sequelize, sql } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { pseudonymNumber } from "~/platform/pseudonyms.server";
import { sharedCache } from "~/platform/shared-cache.server";
import { lotBadge } from "~/services/auctions/rules";
import type { AuctionVehicle, HistoryEntry, LotDetail } from "~/services/auctions/types";
import { UserError } from "~/utils/user-error";
import { AuctionQuerySchema, type AuctionQuery } from "~/services/auctions/schemas";
import type { AuctionSort } from "~/services/auctions/options";
import { escapeLike } from "~/utils/escape-like";
import { lotPicture } from "~/services/auctions/pictures";
import { runConditionLabel } from "~/services/auctions/house-facts";

export const PAGE_SIZE = 24;
export type { AuctionVehicle, HistoryEntry, LotDetail } from "~/services/auctions/types";

type LotRow = {
  id: string;
  lot_number: string;
  year: number;
  make: string;
  model: string;
  vin: string;
  location_city: string;
  location_state: string;
  damage_type: string;
  primary_damage: string | null;
  secondary_damage: string | null;
  odometer: number | null;
  title_type: string;
  auction_house: "copart" | "iaai";
  status: string;
  current_bid: string;
  bid_count: number;
  estimated_value: string;
  image_url: string | null;
  body_style: string | null;
  color: string | null;
  has_keys: boolean;
  run_condition: string | null;
  starts_at: Date;
  ends_at: Date;
  high_bidder_id: string | null;
  high_max: string | null;
  ends_us: string;
  watching: boolean;
};

function toVehicle(row: LotRow, userId: string | null, at: Date): AuctionVehicle {
  return {
    id: String(row.id),
    lotNumber: row.lot_number,
    year: row.year,
    make: row.make,
    model: row.model,
    vin: row.vin,
    location: `${row.location_city}, ${row.location_state}`,
    locationState: row.location_state,
    damageType: row.damage_type,
    primaryDamage: row.primary_damage,
    secondaryDamage: row.secondary_damage,
    odometer: row.odometer,
    hasKeys: row.has_keys,
    runCondition: row.run_condition,
    titleType: row.title_type,
    auctionHouse: row.auction_house,
    status: row.status,
    badge: lotBadge({ status: row.status, startsAt: row.starts_at, endsAt: row.ends_at }, at),
    currentBid: row.current_bid,
    bidCount: row.bid_count,
    estimatedValue: row.estimated_value,
    imageUrl: row.image_url,
    bodyStyle: row.body_style,
    color: row.color,
    startsAt: new Date(row.starts_at).toISOString(),
    endsAt: new Date(row.ends_at).toISOString(),
    watching: Boolean(row.watching),
    leading: userId !== null && row.high_bidder_id === userId,
    myMax: userId !== null && row.high_bidder_id === userId ? row.high_max : null,
  };
}

/** Where a keyset page ends: the last lot's end in microseconds (the column's precision) and id. */
type Cursor = { endsAtMicros: string; id: string };

export function encodeCursor(cursor: Cursor) {
  return Buffer.from(`${cursor.endsAtMicros}.${cursor.id}`).toString("base64url");
}

export function decodeCursor(value: string | undefined): Cursor | null {
  if (!value) return null;
  const match = /^(\d{1,18})\.(\d{1,18})$/.exec(Buffer.from(value, "base64url").toString());
  if (!match) return null;
  return { endsAtMicros: match[1], id: match[2] };
}

/** The WHERE clause for the filters; every path has an index (see the 0401 migration). */
export function whereFor(query: AuctionQuery) {
  const clauses: string[] = [];
  const replacements: Record<string, unknown> = {};
  if (query.status === "ended") clauses.push("l.status <> 'active'");
  else clauses.push("l.status = 'active'");
  if (query.auctionHouse) {
    clauses.push("l.auction_house = :house");
    replacements.house = query.auctionHouse;
  }
  if (query.make) {
    clauses.push("l.make = :make");
    replacements.make = query.make;
  }
  if (query.model) {
    clauses.push("l.model ILIKE :model");
    replacements.model = escapeLike(query.model);
  }
  if (query.year) {
    clauses.push("l.year = :year");
    replacements.year = query.year;
  }
  // A range typed backwards (2025 to 2012) means the years between (docs/decisions/2804).
  const [yearMin, yearMax] =
    query.yearMin && query.yearMax && query.yearMin > query.yearMax
      ? [query.yearMax, query.yearMin]
      : [query.yearMin, query.yearMax];
  if (yearMin) {
    clauses.push("l.year >= :yearMin");
    replacements.yearMin = yearMin;
  }
  if (yearMax) {
    clauses.push("l.year <= :yearMax");
    replacements.yearMax = yearMax;
  }
  if (query.damageType) {
    clauses.push("l.damage_type = :damageType");
    replacements.damageType = query.damageType;
  }
  if (query.damage) {
    clauses.push("l.primary_damage = :damage");
    replacements.damage = query.damage;
  }
  if (query.location) {
    clauses.push("l.location_state = :location");
    replacements.location = query.location;
  }
  if (query.titleType) {
    clauses.push("l.title_type = :titleType");
    replacements.titleType = query.titleType;
  }
  if (query.runsDrives) {
    clauses.push("l.runs_drives = :runsDrives");
    replacements.runsDrives = query.runsDrives === "yes";
  }
  if (query.search) {
    clauses.push("(l.make || ' ' || l.model || ' ' || l.vin) ILIKE :search");
    replacements.search = `%${escapeLike(query.search)}%`;
  }
  return { sql: clauses.join(" AND "), replacements };
}

/**
 * `:name` placeholders as pg's `$1, $2…` with their values in order (a `::type` cast is left
 * alone), for the statements sent through `sql()`.
 */
export function positional(text: string, replacements: Record<string, unknown>) {
  const values: unknown[] = [];
  const index = new Map<string, number>();
  const out = text.replace(/(?<![:\w]):([a-zA-Z]\w*)/g, (_, name: string) => {
    if (!(name in replacements)) throw new Error(`no value for :${name}`);
    let at = index.get(name);
    if (at === undefined) {
      values.push(replacements[name]);
      at = values.length;
      index.set(name, at);
    }
    return `$${at}`;
  });
  return { text: out, values };
}

/** Counting stops here: beyond it the list says "10,000+" (as the community list does). */
export const COUNT_CAP = 10_000;

/**
 * Counts per filter, up to COUNT_CAP + 1, one in flight per filter for every request of this
 * process, answers kept 5 s and served for a minute longer while one request counts again
 * (docs/decisions/2904): the list refreshes every 5 s, and an exact count of 300,000 open lots
 * took a parallel scan of 240 ms to say a number nobody reads past its first digits.
 */
const counts = sharedCache<number>({ freshMs: 5_000, staleMs: 65_000, max: 500 });

function countLots(where: { sql: string; replacements: Record<string, unknown> }, open: boolean) {
  // the open list's count leaves out lots past their end (as the list does) by the database's
  // clock, so the statement, and its key, stay the same from one request to the next
  const clause = open ? `${where.sql} AND l.ends_at > now()` : where.sql;
  return counts.get(JSON.stringify([clause, where.replacements]), async () => {
    const statement = positional(
      `SELECT count(*)::int AS count FROM
         (SELECT 1 FROM lots l WHERE ${clause} LIMIT ${COUNT_CAP + 1}) matches`,
      where.replacements,
    );
    const [row] = await sql<{ count: number }>(statement.text, statement.values, {
      prepared: true,
    });
    return row.count;
  });
}

/** For tests: forget the counts this process holds. */
export function forgetLotCounts() {
  counts.clear();
}

const LIST_COLUMNS = `l.id, l.lot_number, l.year, l.make, l.model, l.vin, l.location_city,
  l.location_state, l.damage_type, l.primary_damage, l.secondary_damage, l.odometer, l.title_type, l.auction_house, l.status,
  l.current_bid, l.bid_count, l.estimated_value, l.image_urls[1] AS image_url, l.body_style, l.color, l.has_keys, l.run_condition, l.starts_at,
  l.ends_at, (extract(epoch FROM l.ends_at) * 1000000)::bigint AS ends_us, l.high_bidder_id,
  l.high_max`;

/**
 * The orders other than ending soonest: their pages are counted by position (see record 3311),
 * the id breaking ties so a page never repeats a lot of the one before.
 */
const SORT_ORDERS: Record<Exclude<AuctionSort, "ending">, string> = {
  newest: "l.starts_at DESC, l.id DESC",
  price_asc: "l.current_bid ASC, l.id ASC",
  price_desc: "l.current_bid DESC, l.id DESC",
  year_desc: "l.year DESC, l.id DESC",
  year_asc: "l.year ASC, l.id ASC",
};

/** A page cursor of a sorted list: how many lots the pages before it held. */
export function encodeOffsetCursor(offset: number) {
  return Buffer.from(`o${offset}`).toString("base64url");
}

export function decodeOffsetCursor(value: string | undefined): number | null {
  if (!value) return null;
  const match = /^o(\d{1,7})$/.exec(Buffer.from(value, "base64url").toString());
  return match ? Number(match[1]) : null;
}

/** The list page's query string checked against the query set; null when it is not valid. */
export function parseAuctionQuery(searchParams: URLSearchParams): AuctionQuery | null {
  const parsed = AuctionQuerySchema.safeParse(Object.fromEntries(searchParams));
  return parsed.success ? parsed.data : null;
}

/** A filter value the list page could not use: left out of the search, shown under its field. */
export type IgnoredAuctionFilter = { key: keyof AuctionQuery; value: string; problem: string };

export const AUCTION_QUERY_NOTICES = {
  badCursor: "That page link is not valid any more, so this is the first page.",
  swappedYears: (from: number, to: number) =>
    `Year from ${from} to ${to} runs backwards, so these are the lots from ${to} to ${from}.`,
} as const;

/**
 * The list page's reading of its query string: a value that does not parse (a 550-character
 * search, a typo in a shared link) is left out rather than failing the page, and returned with
 * its reason for the filter form; a backwards year range is turned round and named.
 */
export function lenientAuctionQuery(searchParams: URLSearchParams): {
  query: AuctionQuery;
  ignored: IgnoredAuctionFilter[];
  notices: string[];
} {
  const raw = Object.fromEntries(searchParams);
  const parsed = AuctionQuerySchema.safeParse(raw);
  const ignored: IgnoredAuctionFilter[] = [];
  const notices: string[] = [];
  let query: AuctionQuery;
  if (parsed.success) query = parsed.data;
  else {
    const problems = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]);
      if (!problems.has(key)) problems.set(key, issue.message);
    }
    const cleaned = { ...raw };
    for (const [key, problem] of problems) {
      delete cleaned[key];
      if (key === "cursor") notices.push(AUCTION_QUERY_NOTICES.badCursor);
      else ignored.push({ key: key as keyof AuctionQuery, value: raw[key] ?? "", problem });
    }
    // Each field parses on its own, so what is left always parses.
    query = AuctionQuerySchema.parse(cleaned);
  }
  if (query.yearMin && query.yearMax && query.yearMin > query.yearMax) {
    notices.push(AUCTION_QUERY_NOTICES.swappedYears(query.yearMin, query.yearMax));
    query = { ...query, yearMin: query.yearMax, yearMax: query.yearMin };
  }
  return { query, ignored, notices };
}

/** The query string of the filters in use (no page cursor): what "Save this search" keeps. */
export function auctionQueryString(query: AuctionQuery) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === "cursor" || value === undefined || value === null || value === "") continue;
    params.set(key, String(value));
  }
  return params.toString();
}

/** The API's query string checked against the query set; a 400 UserError naming the problem. */
export function readAuctionQuery(searchParams: URLSearchParams): AuctionQuery {
  const parsed = AuctionQuerySchema.safeParse(Object.fromEntries(searchParams));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new UserError(`Invalid query: ${issue.path.join(".")}: ${issue.message}`, { status: 400 });
}

/** Parameters only the auction query uses; its client always sends `status`. */
const AUCTION_ONLY_PARAMS = ["auctionHouse", "damageType", "location", "status"];

/** True when a GET /api/vehicles call asks for auction lots rather than community listings. */
export function isAuctionQuery(searchParams: URLSearchParams) {
  return AUCTION_ONLY_PARAMS.some((name) => searchParams.has(name));
}

/**
 * One keyset page of lots for the filters (open lots by soonest end; ended lots newest first),
 * the total count and the cursor of the next page. Lots past their end are closed by their close
 * jobs (docs/decisions/3562), not here: the open list leaves out a lot whose end has passed, and the ended
 * list shows it once it is closed (docs/decisions/2904).
 */
export async function searchLots(query: AuctionQuery, userId: string | null, limit = PAGE_SIZE) {
  if (query.sort && query.sort !== "ending") return searchSortedLots(query, userId, limit);
  const at = now();
  const where = whereFor(query);
  const cursor = decodeCursor(query.cursor);
  const ended = query.status === "ended";
  const keyset = cursor
    ? ended
      ? " AND (l.ends_at, l.id) < (timestamptz 'epoch' + :cursorMicros::bigint * interval '1 microsecond', :cursorId)"
      : " AND (l.ends_at, l.id) > (timestamptz 'epoch' + :cursorMicros::bigint * interval '1 microsecond', :cursorId)"
    : "";
  const open = ended ? "" : " AND l.ends_at > :at";
  const order = ended ? "l.ends_at DESC, l.id DESC" : "l.ends_at ASC, l.id ASC";
  const list = positional(
    `SELECT ${LIST_COLUMNS},
            EXISTS (SELECT 1 FROM watchlist w WHERE w.lot_id = l.id AND w.user_id = :userId)
              AS watching
       FROM lots l WHERE ${where.sql}${open}${keyset} ORDER BY ${order} LIMIT :limit`,
    {
      ...where.replacements,
      userId,
      at,
      limit: limit + 1,
      ...(cursor ? { cursorMicros: cursor.endsAtMicros, cursorId: cursor.id } : {}),
    },
  );
  const rows = await sql<LotRow>(list.text, list.values, { prepared: true });
  // a first page with room to spare holds every match: its length is the count
  const count = !cursor && rows.length <= limit ? rows.length : await countLots(where, !ended);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    vehicles: page.map((row) => toVehicle(row, userId, at)),
    /** matches, up to COUNT_CAP */
    total: Math.min(count, COUNT_CAP),
    /** true when there are more than COUNT_CAP matches */
    totalCapped: count > COUNT_CAP,
    nextCursor:
      rows.length > limit && last
        ? encodeCursor({ endsAtMicros: String(last.ends_us), id: String(last.id) })
        : null,
    serverTime: at.toISOString(),
  };
}

/** One page of lots in a chosen order (newest, price, year), counted by position. */
async function searchSortedLots(query: AuctionQuery, userId: string | null, limit: number) {
  const at = now();
  const where = whereFor(query);
  const offset = decodeOffsetCursor(query.cursor) ?? 0;
  const ended = query.status === "ended";
  const open = ended ? "" : " AND l.ends_at > :at";
  const order = SORT_ORDERS[query.sort as Exclude<AuctionSort, "ending">];
  const list = positional(
    `SELECT ${LIST_COLUMNS},
            EXISTS (SELECT 1 FROM watchlist w WHERE w.lot_id = l.id AND w.user_id = :userId)
              AS watching
       FROM lots l WHERE ${where.sql}${open} ORDER BY ${order} LIMIT :limit OFFSET :offset`,
    { ...where.replacements, userId, at, limit: limit + 1, offset },
  );
  const rows = await sql<LotRow>(list.text, list.values, { prepared: true });
  const count = offset === 0 && rows.length <= limit ? rows.length : await countLots(where, !ended);
  const page = rows.slice(0, limit);
  return {
    vehicles: page.map((row) => toVehicle(row, userId, at)),
    total: Math.min(count, COUNT_CAP),
    totalCapped: count > COUNT_CAP,
    nextCursor: rows.length > limit ? encodeOffsetCursor(offset + limit) : null,
    serverTime: at.toISOString(),
  };
}

/**
 * A lot with every field (inside `transaction` when given). It only reads: a lot past its end is closed by its close job,
 * never by a page (docs/decisions/3562).
 */
export async function getLot(
  lotId: string,
  userId: string | null,
  transaction?: Transaction,
): Promise<LotDetail | null> {
  if (!/^\d{1,18}$/.test(lotId)) return null;
  const at = now();
  const [row] = await sequelize.query<LotDetailRow>(LOT_DETAIL_SQL, {
    bind: [lotId, userId],
    type: QueryTypes.SELECT,
    transaction,
  });
  return row ? toLotDetail(row, userId, at) : null;
}

export type LotDetailRow = LotRow & {
  trim_level: string | null;
  location_zip: string | null;
  yard_name: string | null;
  title_state: string | null;
  runs_drives: boolean;
  odometer_brand: string | null;
  item_number: string | null;
  grid_row: string | null;
  repair_cost: string | null;
  image_urls: string[];
};

/** A lot with every field: $1 the lot's id, $2 the viewer's (or null). */
export const LOT_DETAIL_SQL = `SELECT ${LIST_COLUMNS}, l.trim_level, l.location_zip, l.yard_name,
            l.title_state, l.runs_drives, l.odometer_brand, l.item_number, l.grid_row,
            l.repair_cost, l.image_urls,
            EXISTS (SELECT 1 FROM watchlist w WHERE w.lot_id = l.id AND w.user_id = $2)
              AS watching
       FROM lots l WHERE l.id = $1`;

export function toLotDetail(row: LotDetailRow, userId: string | null, at: Date): LotDetail {
  const vehicle = toVehicle(row, userId, at);
  return {
    ...vehicle,
    trimLevel: row.trim_level,
    locationCity: row.location_city,
    locationZip: row.location_zip,
    yardName: row.yard_name,
    titleState: row.title_state,
    runsDrives: row.runs_drives,
    odometerBrand: row.odometer_brand,
    itemNumber: row.item_number,
    gridRow: row.grid_row,
    repairCost: row.repair_cost,
    imageUrls: row.image_urls,
  };
}

/** "Bidder 4821": stable for one bidder on one lot, unlinkable across lots, keyed (not reversible). */
export function maskBidder(userId: string, lotId: string) {
  return `Bidder ${pseudonymNumber("bidder", lotId, userId)}`;
}

export type HistoryRow = {
  id: string;
  user_id: string;
  amount: string;
  automatic: boolean;
  created_at: Date;
};

/** Newest first, keyset by id, bidders masked. */
export async function bidHistory(
  lotId: string,
  viewerId: string | null,
  options: { before?: string; limit?: number; transaction?: Transaction } = {},
): Promise<HistoryEntry[]> {
  const limit = Math.min(Math.max(options.limit ?? 25, 1), 100);
  const rows = await sequelize.query<HistoryRow>(
    // a leader's raise of their own maximum is not a bid anyone sees (docs/decisions/2702)
    `SELECT id, user_id, amount, automatic, created_at FROM bids
      WHERE lot_id = :lotId AND NOT max_raise ${options.before ? "AND id < :before" : ""}
      ORDER BY id DESC LIMIT :limit`,
    {
      replacements: { lotId, before: options.before, limit },
      type: QueryTypes.SELECT,
      transaction: options.transaction,
    },
  );
  return toHistory(rows, lotId, viewerId);
}

export function toHistory(
  rows: HistoryRow[],
  lotId: string,
  viewerId: string | null,
): HistoryEntry[] {
  return rows.map((row) => ({
    id: String(row.id),
    bidder: maskBidder(row.user_id, lotId),
    amount: row.amount,
    automatic: row.automatic,
    mine: viewerId !== null && row.user_id === viewerId,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

/** Adds the lot to the user's watchlist, or removes it when already there. */
export async function toggleWatch(userId: string, lotId: string) {
  const [rows] = await sequelize.query(
    `WITH removed AS (DELETE FROM watchlist WHERE user_id = :userId AND lot_id = :lotId RETURNING 1)
     INSERT INTO watchlist (user_id, lot_id)
     SELECT :userId, :lotId WHERE NOT EXISTS (SELECT 1 FROM removed)
     ON CONFLICT DO NOTHING RETURNING 1`,
    { replacements: { userId, lotId } },
  );
  return (rows as unknown[]).length > 0;
}

export async function lotExists(lotId: string) {
  if (!/^\d{1,18}$/.test(lotId)) return false;
  const rows = await sequelize.query("SELECT 1 FROM lots WHERE id = :lotId", {
    replacements: { lotId },
    type: QueryTypes.SELECT,
  });
  return rows.length > 0;
}

/** The landing page's lots: one load per 15 s for every visitor (docs/decisions/3552). */
/**
 * A landing-page lot as the visitor's page shows it: the picture and the run condition's words
 * are worked out here, so the landing page's script carries neither the drawings' table nor the
 * houses' words (the page's JavaScript is in the bench).
 */
export type LandingLot = {
  id: string;
  title: string;
  house: string;
  location: string;
  damage: string;
  condition: string;
  hasKeys: boolean;
  currentBid: string;
  startsAt: string;
  endsAt: string;
  picture: { src: string; alt: string; drawn: boolean };
};

function toLandingLot(lot: AuctionVehicle): LandingLot {
  const picture = lotPicture(lot, "thumb");
  return {
    id: lot.id,
    title: `${lot.year} ${lot.make} ${lot.model}`,
    house: lot.auctionHouse === "iaai" ? "IAAI" : "Copart",
    location: lot.location,
    damage: lot.primaryDamage ?? "Damage not stated",
    condition: runConditionLabel(lot.auctionHouse, lot.runCondition),
    hasKeys: lot.hasKeys,
    currentBid: lot.currentBid,
    startsAt: lot.startsAt,
    endsAt: lot.endsAt,
    picture: { src: picture.src, alt: picture.alt, drawn: picture.drawn },
  };
}

const landingCache = sharedCache<{ lots: LandingLot[]; serverTime: string }>({
  freshMs: 15_000,
  staleMs: 60_000,
  max: 1,
});
export const LANDING_LOT_COUNT = 4;

/**
 * The few open lots a signed-out visitor sees on the landing page: the head of the list's own
 * order (soonest end first, the same index walk, no count), read for no one and shared.
 */
export async function landingLots() {
  return landingCache.get("open", async () => {
    const at = now();
    const rows = await sql<LotRow>(
      `SELECT ${LIST_COLUMNS}, false AS watching
         FROM lots l WHERE l.status = 'active' AND l.ends_at > $1
        ORDER BY l.ends_at ASC, l.id ASC LIMIT ${LANDING_LOT_COUNT}`,
      [at],
      { prepared: true },
    );
    return {
      lots: rows.map((row) => toLandingLot(toVehicle(row, null, at))),
      serverTime: at.toISOString(),
    };
  });
}

/** For tests: forget the landing page's lots. */
export function forgetLandingLots() {
  landingCache.clear();
}
