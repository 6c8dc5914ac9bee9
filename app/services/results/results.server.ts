// Sold prices: what closed lots sold for (their final price is the current bid they closed on),
// searched by vehicle, and the comparable sales and likely price of one lot (record 2104).
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { auctionValue } from "~/services/vehicles/valuation";
import { toCents } from "~/utils/money";
import {
  COMPARABLE_LIMIT,
  bidGuidance,
  likelyPrice,
  salesSpread,
  type BidGuidance,
  type LikelyPrice,
  type SalesSpread,
} from "./guidance";
import { RESULTS_LIMIT, type ResultsQuery } from "./schemas";
import { escapeLike } from "~/utils/escape-like";
import { sharedCache } from "~/platform/shared-cache.server";

export { RESULTS_LIMIT };
/** Comparable sales: same make and model, model year within this many years, newest first. */
export const COMPARABLE_YEARS = 2;
export { COMPARABLE_LIMIT } from "./guidance";
export { MIN_COMPARABLES } from "./guidance";

export type SoldLot = {
  id: string;
  auctionHouse: string;
  lotNumber: string;
  year: number;
  make: string;
  model: string;
  damageType: string;
  primaryDamage: string | null;
  titleType: string;
  odometer: number | null;
  runsDrives: boolean;
  soldPrice: string;
  soldAt: string;
  /** The first stored picture; null shows the drawing (lotPicture in services/auctions/pictures). */
  imageUrl: string | null;
  bodyStyle: string | null;
  color: string | null;
};
export type PriceSummary = {
  count: number;
  median: string | null;
  low: string | null;
  high: string | null;
};

type Row = {
  id: string;
  auction_house: string;
  lot_number: string;
  year: number;
  make: string;
  model: string;
  damage_type: string;
  primary_damage: string | null;
  title_type: string;
  odometer: number | null;
  runs_drives: boolean;
  current_bid: string;
  closed_at: Date;
  image: string | null;
  body_style: string | null;
  color: string | null;
};

const COLUMNS = `id::text, auction_house, lot_number, year, make, model, damage_type, primary_damage,
  title_type, odometer, runs_drives, current_bid, closed_at, image_urls[1] AS image, body_style, color`;

function toSold(row: Row): SoldLot {
  return {
    id: row.id,
    auctionHouse: row.auction_house,
    lotNumber: row.lot_number,
    year: row.year,
    make: row.make,
    model: row.model,
    damageType: row.damage_type,
    primaryDamage: row.primary_damage,
    titleType: row.title_type,
    odometer: row.odometer,
    runsDrives: row.runs_drives,
    soldPrice: row.current_bid,
    soldAt: new Date(row.closed_at).toISOString(),
    imageUrl: row.image,
    bodyStyle: row.body_style,
    color: row.color,
  };
}

const money = (value: string | number | null) =>
  value === null ? null : (Math.round(Number(value) / 25) * 25).toFixed(2);

/** The newest sold lots matching the search, and the median and middle half of all matches. */
export async function searchSoldLots(query: ResultsQuery) {
  const where = ["status = 'sold'"];
  const replacements: Record<string, unknown> = { limit: RESULTS_LIMIT };
  if (query.make) {
    where.push("lower(make) = lower(:make)");
    replacements.make = query.make;
  }
  if (query.model) {
    where.push("lower(model) LIKE lower(:model) || '%'");
    replacements.model = escapeLike(query.model);
  }
  if (query.yearFrom) {
    where.push("year >= :yearFrom");
    replacements.yearFrom = query.yearFrom;
  }
  if (query.yearTo) {
    where.push("year <= :yearTo");
    replacements.yearTo = query.yearTo;
  }
  if (query.damage) {
    where.push("damage_type = :damage");
    replacements.damage = query.damage;
  }
  if (query.title) {
    where.push("title_type = :title");
    replacements.title = query.title;
  }
  const filter = where.join(" AND ");
  const [rows, [summary]] = await Promise.all([
    sequelize.query<Row>(
      `SELECT ${COLUMNS} FROM lots WHERE ${filter} ORDER BY closed_at DESC, id DESC LIMIT :limit`,
      { replacements, type: QueryTypes.SELECT },
    ),
    sequelize.query<{
      count: number;
      median: string | null;
      low: string | null;
      high: string | null;
    }>(
      `SELECT count(*)::int AS count,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY current_bid) AS median,
              percentile_cont(0.25) WITHIN GROUP (ORDER BY current_bid) AS low,
              percentile_cont(0.75) WITHIN GROUP (ORDER BY current_bid) AS high
         FROM lots WHERE ${filter}`,
      { replacements, type: QueryTypes.SELECT },
    ),
  ]);
  return {
    lots: rows.map(toSold),
    summary: {
      count: summary.count,
      median: money(summary.median),
      low: money(summary.low),
      high: money(summary.high),
    } satisfies PriceSummary,
  };
}

export type LotForComparison = {
  id: string;
  year: number;
  make: string;
  model: string;
  damageType: string;
  primaryDamage: string | null;
  titleType: string;
  runsDrives: boolean;
  estimatedValue: string;
};

export type Comparables = {
  /** the most relevant of them, shown as rows */
  sales: SoldLot[];
  /** every sale the range rests on: count, median, lowest and highest */
  spread: SalesSpread;
  /** the likely hammer price, from those sales (docs/decisions/2703) */
  likely: LikelyPrice | null;
  /** what the bid form compares a bid with, or null when the evidence is too thin */
  guidance: BidGuidance | null;
};

/**
 * How long one make, model, year and damage's sales are kept in a process before they are read
 * again: a lot that sells now counts in the likely price within this (record 3543). Sales are
 * the same for every viewer: nothing of a user is in them.
 */
export const COMPARABLES_FRESH_MS = 60_000;
const comparableRows = sharedCache<Row[]>({
  freshMs: COMPARABLES_FRESH_MS,
  staleMs: 2 * COMPARABLES_FRESH_MS,
  max: 2000,
});

/** Forgets the kept sales (tests; a change the caller knows about). */
export function forgetComparables() {
  comparableRows.clear();
}

/**
 * Recent sales of the same make and model within ±2 model years, those with the same kind of
 * damage first; the median and middle half of up to 30 of them; and the likely price. The sales
 * are kept per make, model, year and damage (record 3543); the lot itself is never among them.
 */
export async function comparableSales(lot: LotForComparison): Promise<Comparables> {
  const key = [lot.make, lot.model, lot.year, lot.damageType].join("\u0000");
  const kept = await comparableRows.get(key, () =>
    sequelize.query<Row>(
      `SELECT ${COLUMNS} FROM lots
        WHERE status = 'sold' AND make = :make AND model = :model
          AND year BETWEEN :year - ${COMPARABLE_YEARS} AND :year + ${COMPARABLE_YEARS}
        ORDER BY (damage_type = :damage) DESC, closed_at DESC, id DESC
        LIMIT 31`,
      {
        replacements: { make: lot.make, model: lot.model, year: lot.year, damage: lot.damageType },
        type: QueryTypes.SELECT,
      },
    ),
  );
  // one more than needed is read, so a sold lot's own sale can be left out of its comparison
  const rows = kept.filter((row) => row.id !== lot.id).slice(0, 30);
  const prices = rows.map((r) => toCents(r.current_bid));
  const guess =
    Number(lot.estimatedValue) > 0
      ? auctionValue({
          retail: Number(lot.estimatedValue),
          primaryDamage: lot.primaryDamage,
          damageType: lot.damageType,
          titleType: lot.titleType,
          runsDrives: lot.runsDrives,
        })
      : null;
  const spread = salesSpread(prices);
  const likely = likelyPrice(prices, guess === null ? null : guess * 100);
  return {
    sales: rows.slice(0, COMPARABLE_LIMIT).map(toSold),
    spread,
    likely,
    guidance: bidGuidance(likely, spread, lot.runsDrives),
  };
}
