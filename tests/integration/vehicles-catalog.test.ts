import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { decodeVin } from "~/services/vehicles/decode.server";
import { compareWithVin } from "~/services/vehicles/disagreement";
import { parseArtFile, paintName } from "~/services/vehicles/drawing";
import { hasValidCheckDigit } from "~/services/vehicles/vin";
import { listingFactsFromVin } from "~/services/listings/vin-fill";
import { runSeeds } from "../../db/seeds/index";
import { seedScaleLots } from "../../db/seeds/lots";

type Vehicle = { vin: string; year: number; make: string; model: string };
const rows = <T extends object>(sql: string) =>
  sequelize.query<T>(sql, { type: QueryTypes.SELECT });

/**
 * Returns the vehicles whose VIN does not decode to their stated year, make and model. What a VIN
 * decodes to is fixed by positions 1–8, 10 and 11 (maker, vehicle descriptor, year, plant); the
 * serial carries nothing vPIC reads for these makers. So one VIN per distinct descriptor is
 * decoded (a decode costs ~50 ms) and every vehicle sharing it must state the same vehicle.
 */
async function disagreeing(vehicles: Vehicle[]) {
  const bad: string[] = [];
  const groups = new Map<string, Vehicle[]>();
  for (const v of vehicles) {
    const key = v.vin.slice(0, 8) + v.vin.slice(9, 11);
    groups.set(key, [...(groups.get(key) ?? []), v]);
  }
  for (const group of groups.values()) {
    const stated = new Set(group.map((v) => `${v.year}|${v.make}|${v.model}`));
    if (stated.size > 1) bad.push(`${group[0].vin}: one descriptor, ${[...stated].join(" and ")}`);
  }
  for (const [v] of groups.values()) {
    const verdict = compareWithVin(v, await decodeVin(v.vin), v.vin);
    if (verdict.status !== "ok")
      bad.push(`${v.vin} ${v.year} ${v.make} ${v.model}: ${verdict.status}`);
  }
  return bad;
}

describe("the demo catalogue", () => {
  it("every demo lot's and listing's VIN has a valid check digit and decodes to the stated vehicle", async () => {
    await runSeeds([], () => undefined);
    const lots = await rows<Vehicle>("SELECT vin, year, make, model FROM lots");
    const listings = await rows<Vehicle>(
      "SELECT vin, year, make, model FROM listings WHERE vin IS NOT NULL",
    );
    expect(lots.length).toBeGreaterThan(800);
    expect(listings.length).toBe(
      (await rows<{ n: number }>("SELECT count(*)::int AS n FROM listings"))[0].n,
    );
    const all = [...lots, ...listings];
    expect(all.filter((v) => !hasValidCheckDigit(v.vin)).map((v) => v.vin)).toEqual([]);
    expect(await disagreeing(all)).toEqual([]);
  }, 240_000);

  it("every demo listing's body type and fuel are what its VIN decodes to", async () => {
    const listings = await rows<Vehicle & { body_type: string | null; fuel_type: string | null }>(
      "SELECT vin, year, make, model, body_type, fuel_type FROM listings WHERE vin IS NOT NULL",
    );
    const bad: string[] = [];
    for (const listing of listings) {
      // the decoder remembers recent VINs; one per descriptor is decoded again at most
      const facts = listingFactsFromVin(await decodeVin(listing.vin));
      const stated = { bodyType: listing.body_type, fuelType: listing.fuel_type };
      for (const key of ["bodyType", "fuelType"] as const) {
        if (facts[key] !== null && stated[key] !== facts[key])
          bad.push(
            `${listing.year} ${listing.make} ${listing.model}: ${key} ${stated[key]}, VIN ${facts[key]}`,
          );
      }
    }
    expect(bad).toEqual([]);
  }, 240_000);

  it("pictures are drawings of the lot's own body style in its own colour", async () => {
    const lots = await rows<{ color: string; body_style: string; image_urls: string[] }>(
      "SELECT color, body_style, image_urls FROM lots",
    );
    for (const lot of lots) {
      expect(lot.image_urls).toHaveLength(1);
      const art = parseArtFile(lot.image_urls[0].replace("/vehicle-art/", ""));
      expect(art?.paint, lot.image_urls[0]).toBe(paintName(lot.color));
    }
    const trucks = await rows<{ url: string }>(
      "SELECT image_urls[1] AS url FROM lots WHERE body_style = 'PICKUP'",
    );
    expect(trucks.length).toBeGreaterThan(0);
    expect(trucks.every((t) => t.url.startsWith("/vehicle-art/truck-"))).toBe(true);
    const listingPhotos = await rows<{ url: string; color: string }>(
      `SELECT p.url, l.exterior_color AS color FROM listing_photos p
         JOIN listings l ON l.id = p.listing_id`,
    );
    for (const photo of listingPhotos)
      expect(parseArtFile(photo.url.replace("/vehicle-art/", ""))?.paint).toBe(
        paintName(photo.color),
      );
  });

  it("values follow the model: newer is worth more, and sold lots kept their price (each has one purchase at its final bid)", async () => {
    const [{ newer, older }] = await rows<{ newer: number; older: number }>(
      `SELECT (avg(estimated_value) FILTER (WHERE year >= 2020))::float AS newer,
              (avg(estimated_value) FILTER (WHERE year <= 2015))::float AS older FROM lots`,
    );
    expect(newer).toBeGreaterThan(older);
    // no decade-old economy car is worth a new car's money
    const [{ n }] = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM lots
        WHERE model IN ('Camry', 'Corolla', 'Civic', 'Sentra') AND year <= 2015
          AND estimated_value > 20000`,
    );
    expect(n).toBe(0);
    const sold = await rows<{ current_bid: string; paid: number; bids: number; bid_count: number }>(
      `SELECT l.current_bid, l.bid_count,
              (SELECT count(*)::int FROM purchases p WHERE p.lot_id = l.id
                 AND p.amount = l.current_bid) AS paid,
              (SELECT count(*)::int FROM bids b WHERE b.lot_id = l.id) AS bids
         FROM lots l WHERE l.status = 'sold'`,
    );
    expect(sold.length).toBeGreaterThan(300);
    for (const lot of sold) {
      expect(Number(lot.current_bid)).toBeGreaterThan(0);
      expect([lot.paid, lot.bids]).toEqual([1, lot.bid_count]);
    }
  });

  it("the scale seed builds decodable VINs in SQL, without the decoder", async () => {
    await seedScaleLots(3000);
    const scale = await rows<Vehicle>(
      "SELECT vin, year, make, model FROM lots WHERE lot_number LIKE 'S%'",
    );
    expect(scale).toHaveLength(3000);
    expect(scale.filter((v) => !hasValidCheckDigit(v.vin)).map((v) => v.vin)).toEqual([]);
    // one of each (make, model, year) the scale seed produced
    const seen = new Map<string, Vehicle>();
    for (const v of scale) seen.set(`${v.make}|${v.model}|${v.year}`, v);
    expect(await disagreeing([...seen.values()])).toEqual([]);
  }, 240_000);
});
