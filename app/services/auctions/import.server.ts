import { parse } from "csv-parse";
import { cleanText } from "~/utils/clean-text";
import { QueryTypes } from "sequelize";
import type { Readable } from "node:stream";
import { sequelize } from "~/models/db.server";
import { parseCents, centsToDecimal } from "~/utils/money";
import { decodeVin } from "~/services/vehicles/decode.server";
import { compareWithVin, describeVerdict } from "~/services/vehicles/disagreement";
import type { DecodedVin } from "~/services/vehicles/types";
import { hasValidCheckDigit, isWellFormedVin } from "~/services/vehicles/vin";
import { feedPictureUrl, recordFeedPictures, type FeedPictures } from "./lot-images.server";
import { recordFeedYards } from "./yards.server";
import { parseOdometerBrand, parseRunCondition } from "./house-facts";

/** Copart's member sales-data CSV: the columns we read, by their published header names. */
export const COPART_REQUIRED = [
  "Yard name",
  "Sale Date M/D/CY",
  "Sale time (HHMM)",
  "Time Zone",
  "Lot number",
  "Year",
  "Make",
  "Model Group",
  "Model Detail",
  "Body Style",
  "Color",
  "Damage Description",
  "Secondary Damage",
  "Sale Title State",
  "Sale Title Type",
  "Has Keys-Yes or No",
  "VIN",
  "Odometer",
  "Est. Retail Value",
  "Repair cost",
  "Runs/Drives",
  "Location city",
  "Location state",
  "Location ZIP",
  "Currency Code",
] as const;

/**
 * Optional picture columns: a file without them still imports. At Copart "Image URL" answers
 * with the list of the lot's pictures and "Image Thumbnail" is one small picture. Only their
 * URLs are recorded here; the pictures are fetched later (lot-images.server.ts).
 */
export const COPART_PICTURE_COLUMNS = { imageUrl: "Image URL", thumbnailUrl: "Image Thumbnail" };

/**
 * Optional fact columns (docs/decisions/3550): read when the file has them, "not stated" when
 * it does not, so an older export without them still imports.
 */
export const COPART_FACT_COLUMNS = {
  odometerBrand: "Odometer Brand",
  itemNumber: "Item#",
  gridRow: "Grid/Row",
  conditionCode: "Lot Cond. Code",
};

/** Hours to add to a yard's local sale time to get UTC (Copart prints the zone's abbreviation). */
const ZONES: Record<string, number> = {
  EST: 5,
  EDT: 4,
  CST: 6,
  CDT: 5,
  MST: 7,
  MDT: 6,
  PST: 8,
  PDT: 7,
  AKST: 9,
  AKDT: 8,
  HST: 10,
};
/** Bidding opens this long before the sale time; the sale time is the close. */
export const OPENS_BEFORE_SALE_MS = 3 * 24 * 60 * 60 * 1000;

const SHORT_MAKES = new Set(["BMW", "GMC", "KIA", "MINI", "RAM", "FIAT", "AUDI", "JEEP", "FORD"]);

function titleCase(text: string) {
  return text
    .toLowerCase()
    .split(/([\s-]+)/)
    .map((part) => (part.length > 0 ? part[0].toUpperCase() + part.slice(1) : part))
    .join("");
}

function normalizeMake(raw: string) {
  const upper = raw.trim().toUpperCase();
  if (upper === "CHEV" || upper === "CHEVY") return "Chevrolet";
  if (upper === "TOYT") return "Toyota";
  if (upper === "MERZ" || upper === "MERCEDES") return "Mercedes-Benz";
  if (upper.length <= 3 && SHORT_MAKES.has(upper)) return upper;
  return titleCase(upper);
}

export function damageTypeFor(description: string) {
  const d = description.toUpperCase();
  if (/FLOOD|WATER/.test(d)) return "flood";
  if (/HAIL/.test(d)) return "hail";
  if (/THEFT|STRIP/.test(d)) return "theft";
  if (/BURN|FIRE/.test(d)) return "fire";
  if (/MECHANICAL|ENGINE|TRANSMISSION|ELECTRICAL/.test(d)) return "mechanical";
  if (/VANDAL/.test(d)) return "vandalism";
  if (/FRONT|REAR|SIDE|ROLL|ALL OVER|TOP|UNDERCARRIAGE|TOP\/ROOF/.test(d)) return "collision";
  return "other";
}

export function titleTypeFor(raw: string) {
  const t = raw.toUpperCase();
  if (/DESTRUCT|JUNK|NON-REPAIRABLE|NONREPAIRABLE/.test(t)) return "certificate_of_destruction";
  if (/PARTS/.test(t)) return "parts_only";
  if (/REBUILT|RECONSTRUCT|REBUILDABLE/.test(t)) return "rebuilt";
  if (/SALVAGE|SALV/.test(t)) return "salvage";
  if (/CLEAR|CLEAN|CERT OF TITLE|CERTIFICATE OF TITLE|ORIGINAL|MV-?\d*|TITLE/.test(t))
    return "clean";
  return "other";
}

/** "1/15/2027" or "20270115" plus "1000" in "CST" → the UTC instant. */
export function saleInstant(date: string, time: string, zone: string): Date | null {
  let y: number, m: number, d: number;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(date.trim());
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(date.trim());
  if (us) [m, d, y] = [Number(us[1]), Number(us[2]), Number(us[3])];
  else if (compact) [y, m, d] = [Number(compact[1]), Number(compact[2]), Number(compact[3])];
  else return null;
  const hhmm = /^(\d{1,2})(\d{2})$/.exec(time.trim());
  if (!hhmm) return null;
  const offset = ZONES[zone.trim().toUpperCase()];
  if (offset === undefined) return null;
  const [h, min] = [Number(hhmm[1]), Number(hhmm[2])];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d || h > 23 || min > 59) return null;
  return new Date(Date.UTC(y, m - 1, d, h + offset, min));
}

export type ImportRow = Record<string, string | number | boolean | null>;
export type Skipped = { line: number; lotNumber: string | null; reason: string };
/** A row imported whose VIN fails its check digit or decodes to another vehicle (record 2102). */
export type VinFlag = { line: number; lotNumber: string; vin: string; reason: string };
export type ImportReport = {
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: Skipped[];
  vinFlags: VinFlag[];
  /** Picture URLs recorded for fetching (new to their lot, or replacing a changed one). */
  pictures: number;
};

/** One CSV record → a lot row and the pictures it names, or the reason it cannot be imported. */
export function copartRecordToLot(
  record: Record<string, string>,
): { lot: ImportRow; pictures: FeedPictures } | { reason: string } {
  const get = (name: string) => (record[name] ?? "").trim();
  const lotNumber = get("Lot number");
  if (!/^[A-Za-z0-9-]{1,20}$/.test(lotNumber)) return { reason: "lot number missing or invalid" };
  const vin = get("VIN").toUpperCase();
  if (!/^[A-Z0-9]{5,17}$/.test(vin))
    return { reason: `VIN "${vin}" is not 5 to 17 letters and digits` };
  const year = Number(get("Year"));
  const maxYear = new Date().getUTCFullYear() + 2;
  if (!Number.isInteger(year) || year < 1900 || year > maxYear)
    return { reason: `year "${get("Year")}" is not between 1900 and ${maxYear}` };
  const make = get("Make");
  if (!make) return { reason: "make missing" };
  const model = get("Model Group") || get("Model Detail");
  if (!model) return { reason: "model missing" };
  const state = get("Location state").toUpperCase();
  if (!/^[A-Z]{2}$/.test(state))
    return { reason: `location state "${state}" is not a two-letter code` };
  const city = get("Location city");
  if (!city) return { reason: "location city missing" };
  const currency = get("Currency Code").toUpperCase() || "USD";
  if (currency !== "USD") return { reason: `currency ${currency} is not supported (USD only)` };
  const sale = saleInstant(get("Sale Date M/D/CY"), get("Sale time (HHMM)"), get("Time Zone"));
  if (!sale) return { reason: "no valid sale date, time and time zone" };
  const odometerText = get("Odometer").replace(/,/g, "");
  const odometer = odometerText === "" ? null : Number(odometerText);
  if (odometer !== null && (!Number.isInteger(odometer) || odometer < 0 || odometer > 2_000_000))
    return { reason: `odometer "${get("Odometer")}" is not a whole number of miles` };
  const estimate = parseCents(get("Est. Retail Value") || "0");
  if (estimate === null)
    return { reason: `estimated retail value "${get("Est. Retail Value")}" is not an amount` };
  const repairText = get("Repair cost");
  const repair = repairText === "" ? null : parseCents(repairText);
  if (repairText !== "" && repair === null)
    return { reason: `repair cost "${repairText}" is not an amount` };
  const titleState = get("Sale Title State").toUpperCase();
  const damage = get("Damage Description");
  const cut = (text: string, max: number) => (text ? text.slice(0, max) : null);
  const conditionCode = get(COPART_FACT_COLUMNS.conditionCode);
  const runCondition = parseRunCondition(get("Runs/Drives"), conditionCode);
  return {
    lot: {
      auction_house: "copart",
      lot_number: lotNumber,
      vin,
      year,
      make: normalizeMake(make).slice(0, 40),
      model: titleCase(model).slice(0, 60),
      trim_level: cut(get("Model Detail"), 80),
      body_style: cut(get("Body Style"), 60),
      color: cut(get("Color"), 40),
      location_city: titleCase(city).slice(0, 80),
      location_state: state,
      location_zip: cut(get("Location ZIP"), 10),
      yard_name: cut(get("Yard name"), 80),
      damage_type: damageTypeFor(damage),
      primary_damage: cut(damage, 60),
      secondary_damage: cut(get("Secondary Damage"), 60),
      title_state: /^[A-Z]{2}$/.test(titleState) ? titleState : null,
      title_type: titleTypeFor(get("Sale Title Type")),
      odometer,
      // "runs and drives" is the top grade of the run condition, never an engine-start lot
      runs_drives: runCondition === "run_and_drive",
      has_keys: /^Y/i.test(get("Has Keys-Yes or No")),
      odometer_brand: parseOdometerBrand(get(COPART_FACT_COLUMNS.odometerBrand)),
      run_condition: runCondition,
      condition_code: cut(conditionCode, 20),
      item_number: cut(get(COPART_FACT_COLUMNS.itemNumber), 20),
      grid_row: cut(get(COPART_FACT_COLUMNS.gridRow), 20),
      estimated_value: centsToDecimal(estimate),
      repair_cost: repair === null ? null : centsToDecimal(repair),
      starts_at: new Date(sale.getTime() - OPENS_BEFORE_SALE_MS).toISOString(),
      ends_at: sale.toISOString(),
    },
    pictures: {
      imageUrl: feedPictureUrl(record[COPART_PICTURE_COLUMNS.imageUrl]),
      thumbnailUrl: feedPictureUrl(record[COPART_PICTURE_COLUMNS.thumbnailUrl]),
    },
  };
}

const FEED_COLUMNS = `auction_house text, lot_number text, vin text, year int, make text, model text,
  trim_level text, body_style text, color text, location_city text, location_state text,
  location_zip text, yard_name text, damage_type text, primary_damage text,
  secondary_damage text, title_state text, title_type text, odometer int, runs_drives boolean,
  has_keys boolean, odometer_brand text, run_condition text, condition_code text,
  item_number text, grid_row text, estimated_value numeric, repair_cost numeric,
  starts_at timestamptz, ends_at timestamptz`;
const FEED_FIELDS = FEED_COLUMNS.split(",").map((c) => c.trim().split(/\s+/)[0]);
const UPDATABLE = FEED_FIELDS.filter((f) => f !== "auction_house" && f !== "lot_number");

/** Upserts a batch; an unchanged lot is not written, and a closed lot is never reopened. */
async function upsertBatch(rows: ImportRow[]) {
  const result = await sequelize.query<{ inserted: boolean }>(
    `INSERT INTO lots (${FEED_FIELDS.join(", ")})
     SELECT ${FEED_FIELDS.join(", ")} FROM jsonb_to_recordset(:rows::jsonb) AS r(${FEED_COLUMNS})
     ON CONFLICT (auction_house, lot_number) DO UPDATE SET
       ${UPDATABLE.map((f) => `${f} = EXCLUDED.${f}`).join(", ")}, updated_at = now()
     WHERE lots.status = 'active' AND lots.bid_count = 0
       AND (${UPDATABLE.map((f) => `lots.${f}`).join(", ")})
           IS DISTINCT FROM (${UPDATABLE.map((f) => `EXCLUDED.${f}`).join(", ")})
     RETURNING (xmax = 0) AS inserted`,
    { replacements: { rows: JSON.stringify(rows) }, type: QueryTypes.SELECT },
  );
  const inserted = result.filter((r) => r.inserted).length;
  return { inserted, updated: result.length - inserted };
}

/**
 * The import's VIN check: a 17-character VIN must pass its check digit and decode to the row's
 * year, make and model. The decoded vehicle depends only on positions 1–8, 10 and 11, so each
 * distinct descriptor is decoded once per import (a decode costs tens of milliseconds). A short
 * VIN on a pre-1981 vehicle has no check digit and is not flagged.
 */
function vinChecker() {
  const byDescriptor = new Map<string, Promise<DecodedVin | null>>();
  return async (lot: ImportRow): Promise<string | null> => {
    const vin = String(lot.vin);
    const stated = { year: Number(lot.year), make: String(lot.make), model: String(lot.model) };
    if (vin.length !== 17 && stated.year < 1981) return null;
    let decoded: DecodedVin | null = null;
    if (isWellFormedVin(vin) && hasValidCheckDigit(vin)) {
      const key = vin.slice(0, 8) + vin.slice(9, 11);
      if (!byDescriptor.has(key))
        byDescriptor.set(
          key,
          decodeVin(vin).catch(() => null),
        );
      decoded = await byDescriptor.get(key)!;
    }
    const verdict = compareWithVin(stated, decoded, vin);
    return describeVerdict(verdict, vin);
  };
}

/**
 * Streams a Copart sales-data CSV into lots: upsert by (house, lot number) in batches, a report
 * of every skipped row and why, and progress on long files. The picture URLs a row names are
 * recorded, each lot's fetch_lot_pictures job queued with them (recordFeedPictures): they are
 * downloaded after, never during the parse.
 */
export async function importCopartCsv(
  input: Readable,
  options: { batchSize?: number; onProgress?: (rows: number) => void } = {},
): Promise<ImportReport> {
  const batchSize = options.batchSize ?? 500;
  const report: ImportReport = {
    rows: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    skipped: [],
    vinFlags: [],
    pictures: 0,
  };
  const checkVin = vinChecker();
  const parser = input.pipe(
    parse({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      trim: true,
      // every cell is one line without control characters, as every text field is
      // (docs/decisions/3011): a quoted cell may hold a line break
      cast: (value: string) => cleanText(value).trim(),
    }),
  );
  let header: string[] | null = null;
  let batch = new Map<string, { line: number; lot: ImportRow; pictures: FeedPictures }>();

  const flush = async () => {
    if (batch.size === 0) return;
    const entries = [...batch.values()];
    const rows = entries.map((entry) => entry.lot);
    batch = new Map();
    const { inserted, updated } = await upsertBatch(rows);
    // a yard the feed names for the first time (its gate pass details are kept there)
    await recordFeedYards(rows);
    report.inserted += inserted;
    report.updated += updated;
    report.unchanged += rows.length - inserted - updated;
    // after the lots exist: only the URLs, nothing is downloaded during the import
    report.pictures += await recordFeedPictures(
      "copart",
      entries.map((entry) => ({
        lotNumber: String(entry.lot.lot_number),
        pictures: entry.pictures,
      })),
    );
  };

  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number };
  }>) {
    if (!header) {
      header = record;
      const missing = COPART_REQUIRED.filter((name) => !header!.includes(name));
      if (missing.length > 0)
        throw new Error(
          `This is not Copart's sales-data header: missing ${missing.map((m) => `"${m}"`).join(", ")}`,
        );
      continue;
    }
    report.rows += 1;
    const line = info.lines;
    if (record.length !== header.length) {
      report.skipped.push({
        line,
        lotNumber: null,
        reason: `has ${record.length} columns, the header has ${header.length}`,
      });
      continue;
    }
    const fields = Object.fromEntries(header.map((name, i) => [name, record[i]]));
    const mapped = copartRecordToLot(fields);
    if ("reason" in mapped) {
      report.skipped.push({ line, lotNumber: fields["Lot number"] || null, reason: mapped.reason });
      continue;
    }
    const key = String(mapped.lot.lot_number);
    const flag = await checkVin(mapped.lot);
    if (flag)
      report.vinFlags.push({ line, lotNumber: key, vin: String(mapped.lot.vin), reason: flag });
    const earlier = batch.get(key);
    if (earlier)
      report.skipped.push({
        line: earlier.line,
        lotNumber: key,
        reason: `lot number repeated on line ${line}; the later row is used`,
      });
    batch.set(key, { line, lot: mapped.lot, pictures: mapped.pictures });
    if (batch.size >= batchSize) await flush();
    if (report.rows % 10_000 === 0) options.onProgress?.(report.rows);
  }
  if (!header) throw new Error("The file is empty: no header row.");
  await flush();
  options.onProgress?.(report.rows);
  return report;
}
