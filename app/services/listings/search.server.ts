// Searching community listings (the page's filters and GET /api/vehicles): one keyset page of
// active listings newest first, with a capped count. See docs/decisions/0501-listing-search.md.
import { QueryTypes } from "sequelize";
import { sellerHandle } from "~/platform/pseudonyms.server";
import { sharedCache } from "~/platform/shared-cache.server";
import { sequelize, sql } from "~/models/db.server";
import {
  CURRENCIES,
  type BodyType,
  type Condition,
  type Country,
  type Currency,
} from "~/services/listings/fields";
import type { RatesInForce } from "~/services/listings/exchange-rates";
import { ratesInForce } from "~/services/listings/exchange-rates.server";
import {
  FILTER_KEYS,
  listingSearchSchema,
  type FilterKey,
  type IgnoredFilter,
  type ListingFilters,
} from "~/services/listings/schemas";
import { UserError } from "~/utils/user-error";
import { escapeLike } from "~/utils/escape-like";

export const PAGE_SIZE = 24;

export type ListingCard = {
  id: string;
  title: string;
  price: string;
  currency: Currency;
  condition: Condition;
  year: number;
  make: string;
  model: string;
  mileage: number | null;
  bodyType: BodyType | null;
  city: string;
  state: string | null;
  country: Country;
  featured: boolean;
  createdAt: string;
  imageUrl: string | null;
  isFavorite: boolean;
  /** The seller's government ID was checked and approved (KYC): the card's "ID verified" badge. */
  sellerVerified: boolean;
  /** The price in the buyer's currency at the rates in force, when the listing's differs. */
  converted?: { price: string; currency: Currency } | null;
};

/** At most this many matches are sorted rather than read in index order (see searchListings). */
const FEW_MATCHES = 2_000;

/** Counting stops here: beyond it the page says "10,000+" (exact counts of huge sets cost a scan). */
export const COUNT_CAP = 10_000;

export type ListingPage = {
  listings: ListingCard[];
  /** Matches, up to COUNT_CAP. */
  total: number;
  /** True when there are more than COUNT_CAP matches. */
  totalCapped: boolean;
  nextCursor: string | null;
};

type CardRow = Omit<ListingCard, "createdAt" | "id" | "converted"> & {
  id: string;
  created_at: Date;
  created_at_text: string;
  converted_price: string | null;
};

/** Escapes LIKE wildcards so a user's "%" or "_" match themselves. */
function likePattern(word: string) {
  return `%${escapeLike(word)}%`;
}

function encodeCursor(createdAtText: string, id: string) {
  return Buffer.from(`${createdAtText}|${id}`, "utf8").toString("base64url");
}

/** The text form of created_at (`created_at::text`) that our cursors carry. */
const CURSOR_TIME =
  /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?$/;

/** A timestamp the database reads back: the right form and a real date (no February 30). */
function isCursorTime(at: string) {
  const match = CURSOR_TIME.exec(at);
  if (!match) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    offsetHours < 16 &&
    offsetMinutes < 60
  );
}

function decodeCursor(cursor: string): { at: string; id: string } | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const [at, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (rest.length > 0 || !at || !id || !isCursorTime(at)) return null;
  // A bigint the database can read: at most 18 digits.
  if (!/^[1-9]\d{0,17}$/.test(id)) return null;
  return { at, id };
}

/** True when `cursor` is one this search handed out (a link may carry anything). */
export function isListingCursor(cursor: string) {
  return decodeCursor(cursor) !== null;
}

/** A cursor that is not one of ours: the caller asked for a page that does not exist. */
export class BadCursorError extends UserError {
  constructor() {
    super("The cursor is not valid: start again from the first page.", {
      status: 400,
      field: "cursor",
    });
  }
}

/** The ranges with each pair the right way round (2025 to 2012 means 2012 to 2025). */
export function inOrder(filters: ListingFilters) {
  let { yearMin, yearMax, priceMin, priceMax } = filters;
  if (yearMin !== undefined && yearMax !== undefined && yearMin > yearMax)
    [yearMin, yearMax] = [yearMax, yearMin];
  if (priceMin !== undefined && priceMax !== undefined && Number(priceMin) > Number(priceMax))
    [priceMin, priceMax] = [priceMax, priceMin];
  return { yearMin, yearMax, priceMin, priceMax };
}

/**
 * The WHERE clause for active listings matching `filters`; every part is a bound parameter. A
 * price range is in the buyer's currency (`filters.currency`, USD by default): each listing is
 * compared in its own currency through `rates`, one range per currency so the price index
 * still serves (docs/decisions/2806).
 */
export function filterClause(filters: ListingFilters, bind: unknown[], rates: RatesInForce) {
  const where = ["l.status = 'active'"];
  const param = (value: unknown) => {
    bind.push(value);
    return `$${bind.length}`;
  };
  if (filters.search) {
    // Every word must appear somewhere in title, make, model or description (trigram index).
    const words = filters.search.split(/\s+/).filter(Boolean).slice(0, 6);
    for (const word of words) {
      where.push(
        `(l.title || ' ' || l.make || ' ' || l.model || ' ' || l.description) ILIKE ${param(likePattern(word))}`,
      );
    }
  }
  if (filters.make) where.push(`lower(l.make) = lower(${param(filters.make)})`);
  if (filters.model) where.push(`lower(l.model) = lower(${param(filters.model)})`);
  const { yearMin, yearMax, priceMin, priceMax } = inOrder(filters);
  if (yearMin !== undefined) where.push(`l.year >= ${param(yearMin)}`);
  if (yearMax !== undefined) where.push(`l.year <= ${param(yearMax)}`);
  const buyerRate = rates.perUsd[filters.currency ?? "USD"];
  const priceBound = (op: ">=" | "<=", amount: string) =>
    `(${CURRENCIES.map(
      (currency) =>
        `(l.currency = ${param(currency)} AND l.price ${op} ${param(amount)}::numeric * ${param(rates.perUsd[currency])}::numeric / ${param(buyerRate)}::numeric)`,
    ).join(" OR ")})`;
  if (priceMin) where.push(priceBound(">=", priceMin));
  if (priceMax) where.push(priceBound("<=", priceMax));
  if (filters.country) where.push(`l.country = ${param(filters.country)}`);
  if (filters.state) where.push(`lower(l.state) = lower(${param(filters.state)})`);
  if (filters.city) where.push(`lower(l.city) = lower(${param(filters.city)})`);
  if (filters.condition) where.push(`l.condition = ${param(filters.condition)}`);
  if (filters.bodyType) where.push(`l.body_type = ${param(filters.bodyType)}`);
  return where;
}

/**
 * Counts per filter (up to COUNT_CAP + 1), kept 5 s by this process and shared while one runs
 * (docs/decisions/2904): a filtered count read up to 10,001 rows on every request, 60 ms of the
 * database's time each under a crowd. A first page with room to spare needs no count at all, so
 * a seller's own new listing is counted at once in any search narrow enough to show it.
 */
const counts = sharedCache<number>({ freshMs: 5_000, staleMs: 65_000, max: 500 });

function countListings(filters: ListingFilters, rates: RatesInForce) {
  const bind: unknown[] = [];
  const where = filterClause(filters, bind, rates);
  const text = `SELECT count(*)::int AS total FROM (SELECT 1 FROM listings l
     WHERE ${where.join(" AND ")} LIMIT ${COUNT_CAP + 1}) matches`;
  return counts.get(JSON.stringify([text, bind]), async () => {
    const [row] = await sql<{ total: number }>(text, bind, { prepared: true });
    return row.total;
  });
}

/** For tests: forget the counts this process holds. */
export function forgetListingCounts() {
  counts.clear();
}

/** Active listings matching `filters`, newest first, one keyset page at a time. */
export async function searchListings(
  filters: ListingFilters,
  options: { cursor?: string | null; limit?: number; viewerId?: string | null } = {},
): Promise<ListingPage> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? PAGE_SIZE) || PAGE_SIZE, 1), 100);
  const rates = await ratesInForce();
  const bind: unknown[] = [];
  const where = filterClause(filters, bind, rates);
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  if (options.cursor && !cursor) throw new BadCursorError();
  if (cursor) {
    bind.push(cursor.at, cursor.id);
    where.push(
      `(l.created_at, l.id) < ($${bind.length - 1}::timestamptz, $${bind.length}::bigint)`,
    );
  }
  bind.push(options.viewerId ?? null);
  const viewer = `$${bind.length}::uuid`;
  // Each price also in the buyer's currency, rounded to whole units: "≈ US$3,000".
  const buyer = filters.currency ?? "USD";
  bind.push(buyer, rates.perUsd[buyer], rates.perUsd.CAD, rates.perUsd.MXN);
  const [buyerParam, buyerRate, cadRate, mxnRate] = [3, 2, 1, 0].map(
    (back) => `$${bind.length - back}`,
  );
  bind.push(limit + 1);

  // A price range can match very few listings among many, which the planner cannot foresee: it
  // would walk the newest-first index through every listing to fill a page. With a price range
  // the count (an index lookup per currency, shared in flight) comes first, and few matches are
  // sorted instead.
  const priced = filters.priceMin !== undefined || filters.priceMax !== undefined;
  const countedFirst = priced ? await countListings(filters, rates) : null;
  const few = countedFirst !== null && countedFirst <= FEW_MATCHES;
  const order = few
    ? "(l.created_at + interval '0 seconds') DESC, l.id DESC"
    : "l.created_at DESC, l.id DESC";
  // The page's rows are chosen first; the photo, the seller's badge and the favourite are read
  // for those rows alone. Asked in one level, the planner may read them for every match before
  // sorting (1,207 photo lookups for a page of 25: docs/decisions/3410).
  const rows = await sql<CardRow>(
    `SELECT l.id, l.title, l.price, l.currency, l.condition, l.year, l.make, l.model, l.mileage,
            l.body_type AS "bodyType", l.city, l.state, l.country, l.featured, l.created_at,
            l.created_at::text AS created_at_text,
            CASE WHEN l.currency <> ${buyerParam}::text THEN
              round(l.price * ${buyerRate}::numeric / CASE l.currency WHEN 'CAD' THEN ${cadRate}::numeric
                WHEN 'MXN' THEN ${mxnRate}::numeric ELSE 1 END)::text END AS converted_price,
            (SELECT p.thumbnail_url FROM listing_photos p
              WHERE p.listing_id = l.id ORDER BY p.position LIMIT 1) AS "imageUrl",
            (SELECT u.verified FROM users u WHERE u.id = l.user_id) AS "sellerVerified",
            (${viewer} IS NOT NULL AND EXISTS (SELECT 1 FROM listing_favorites f
              WHERE f.listing_id = l.id AND f.user_id = ${viewer})) AS "isFavorite"
       FROM (SELECT l.id, l.user_id, l.title, l.price, l.currency, l.condition, l.year, l.make,
                    l.model, l.mileage, l.body_type, l.city, l.state, l.country, l.featured,
                    l.created_at
               FROM listings l
              WHERE ${where.join(" AND ")}
              ORDER BY ${order}
              LIMIT $${bind.length}) l
      ORDER BY l.created_at DESC, l.id DESC`,
    bind,
    { prepared: true },
  );
  // a first page with room to spare holds every match: its length is the count
  const total =
    countedFirst ??
    (!cursor && rows.length <= limit ? rows.length : await countListings(filters, rates));

  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    listings: page.map(({ created_at, created_at_text: _text, converted_price, ...row }) => ({
      ...row,
      id: String(row.id),
      createdAt: created_at.toISOString(),
      converted: converted_price ? { price: converted_price, currency: buyer } : null,
    })),
    total: Math.min(total, COUNT_CAP),
    totalCapped: total > COUNT_CAP,
    nextCursor: rows.length > limit && last ? encodeCursor(last.created_at_text, last.id) : null,
  };
}

function presentFilters(params: URLSearchParams) {
  const raw: Partial<Record<FilterKey, string>> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value) raw[key] = value;
  }
  return raw;
}

/**
 * Only the non-empty community parameters of a query string, or why each bad one is refused
 * (keyed by parameter: "enter a year between 1900 and 2027").
 */
export function parseListingFilters(
  params: URLSearchParams,
): { ok: true; filters: ListingFilters } | { ok: false; errors: Record<string, string> } {
  const parsed = listingSearchSchema.safeParse(presentFilters(params));
  if (parsed.success) return { ok: true, filters: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    errors[String(issue.path[0])] ??= issue.message;
  }
  return { ok: false, errors };
}

/** What the page says when it turned a backwards range round. */
export const RANGE_NOTICES = {
  years: (from: number, to: number) =>
    `Year from ${from} to ${to} runs backwards, so these are the vehicles from ${to} to ${from}.`,
  prices: (from: string, to: string) =>
    `Price from ${from} to ${to} runs backwards, so these are the vehicles from ${to} to ${from}.`,
} as const;

/**
 * The page's reading of a query string: a value that does not parse (a typo in a shared link) is
 * left out rather than failing the whole search, and returned with its reason so the page can
 * say so and mark the field. A backwards range is turned round and named (`notices`).
 */
export function lenientListingFilters(params: URLSearchParams): {
  filters: ListingFilters;
  ignored: IgnoredFilter[];
  notices: string[];
} {
  const result = parseListingFilters(params);
  let filters: ListingFilters;
  let ignored: IgnoredFilter[] = [];
  if (result.ok) filters = result.filters;
  else {
    const raw = presentFilters(params);
    ignored = FILTER_KEYS.flatMap((key) => {
      const problem = result.errors[key];
      return problem ? [{ key, value: raw[key] ?? "", problem }] : [];
    });
    const cleaned = new URLSearchParams(params);
    for (const { key } of ignored) cleaned.delete(key);
    const again = parseListingFilters(cleaned);
    filters = again.ok ? again.filters : {};
  }
  const ordered = inOrder(filters);
  const notices: string[] = [];
  if (ordered.yearMin !== filters.yearMin)
    notices.push(RANGE_NOTICES.years(filters.yearMin!, filters.yearMax!));
  if (ordered.priceMin !== filters.priceMin)
    notices.push(RANGE_NOTICES.prices(filters.priceMin!, filters.priceMax!));
  return { filters: { ...filters, ...definedOnly(ordered) }, ignored, notices };
}

/** The query string of the filters in use: what "Save this search" keeps. */
export function listingQueryString(filters: ListingFilters) {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  return params.toString();
}

function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A listing as API callers get it: every field and its images. */
export type ListingRecord = {
  id: string;
  /** The seller's public handle (never their user id). */
  seller: string;
  title: string;
  description: string;
  make: string;
  model: string;
  year: number;
  mileage: number | null;
  price: string;
  currency: Currency;
  condition: Condition;
  fuelType: string | null;
  transmission: string | null;
  drivetrain: string | null;
  exteriorColor: string | null;
  interiorColor: string | null;
  bodyType: BodyType | null;
  country: Country;
  state: string | null;
  city: string;
  zipCode: string | null;
  images: string[];
  featured: boolean;
  createdAt: string;
  isFavorite: boolean;
};

async function listingRecords(cards: ListingCard[]): Promise<ListingRecord[]> {
  if (cards.length === 0) return [];
  const rows = await sequelize.query<
    Omit<ListingRecord, "createdAt" | "seller"> & { createdAt: Date; userId: string }
  >(
    `SELECT l.id::text AS id, l.user_id AS "userId", l.title, l.description, l.make, l.model,
            l.year, l.mileage, l.price, l.currency, l.condition, l.fuel_type AS "fuelType",
            l.transmission, l.drivetrain, l.exterior_color AS "exteriorColor",
            l.interior_color AS "interiorColor", l.body_type AS "bodyType", l.country, l.state,
            l.city, l.zip_code AS "zipCode", l.featured, l.created_at AS "createdAt",
            ARRAY(SELECT p.url FROM listing_photos p WHERE p.listing_id = l.id
                   ORDER BY p.position) AS images
       FROM listings l WHERE l.id = ANY($1::bigint[])`,
    { bind: [cards.map((c) => c.id)], type: QueryTypes.SELECT },
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return cards.flatMap((card) => {
    const row = byId.get(card.id);
    if (!row) return [];
    const { userId, ...listing } = row;
    return [
      {
        ...listing,
        seller: sellerHandle(userId),
        createdAt: row.createdAt.toISOString(),
        isFavorite: card.isFavorite,
      },
    ];
  });
}

/**
 * GET /api/vehicles with the community query set: one page of listings (ListingRecord, newest
 * first), or the invalid parameters.
 */
export async function searchListingsFromQuery(url: URL, viewerId?: string | null) {
  const parsed = parseListingFilters(url.searchParams);
  if (!parsed.ok) return parsed;
  const cursor = url.searchParams.get("cursor") || null;
  if (cursor && !isListingCursor(cursor)) {
    return { ok: false as const, errors: { cursor: "Invalid cursor" } };
  }
  const page = await searchListings(parsed.filters, {
    cursor,
    limit: Number(url.searchParams.get("limit")) || PAGE_SIZE,
    viewerId,
  });
  return {
    ok: true as const,
    filters: parsed.filters,
    page: { ...page, listings: await listingRecords(page.listings) },
  };
}

/** True when the query string carries any community parameter (vs. the auction set). */
export function isCommunityQuery(params: URLSearchParams) {
  return (
    [
      "search",
      "yearMin",
      "yearMax",
      "priceMin",
      "priceMax",
      "currency",
      "country",
      "state",
      "city",
      "condition",
      "bodyType",
    ] as const
  ).some((key) => params.has(key));
}
