// The VIN decoder's memory is bounded (docs/decisions/3005): corgi caches every query's rows
// forever, which grew a worker's heap by megabytes a minute under the soak's lot pages.
import { describe, expect, it } from "vitest";
import { decoderCacheSizes, decoderSettings, decodeVin } from "~/services/vehicles/decode.server";

/** A VIN with a valid check digit from a maker's prefix, a year letter and a serial. */
function vin(prefix: string, year: string, serial: number) {
  const body = `${prefix}${year}A${String(serial).padStart(6, "0")}`;
  const values: Record<string, number> = {};
  "ABCDEFGH".split("").forEach((c, i) => (values[c] = i + 1));
  "JKLMN".split("").forEach((c, i) => (values[c] = i + 1));
  Object.assign(values, { P: 7, R: 9, S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9 });
  const weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
  const chars = `${body.slice(0, 8)}0${body.slice(8)}`.split("");
  const sum = chars.reduce(
    (total, c, i) => total + (/\d/.test(c) ? Number(c) : values[c]) * weights[i],
    0,
  );
  const check = sum % 11 === 10 ? "X" : String(sum % 11);
  return `${body.slice(0, 8)}${check}${body.slice(8)}`;
}

describe("the VIN decoder's caches", () => {
  it("stay within their bound however many different VINs are decoded", async () => {
    decoderSettings.cacheEntries = 25;
    const prefixes = ["1HGCV1F3", "4T1B11HK", "1FTEW1EP", "5YJ3E1EA", "1C4HJXEG", "JTDKARFU"];
    const years = ["G", "H", "J", "K", "L"];
    let decoded = 0;
    for (const prefix of prefixes)
      for (const year of years)
        if ((await decodeVin(vin(prefix, year, decoded + 1)))?.decoded) decoded += 1;
    expect(decoded).toBeGreaterThan(10);
    const sizes = await decoderCacheSizes();
    // both caches found (a new corgi that keeps them elsewhere fails here)
    expect(sizes).toHaveLength(2);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(25);
    expect(Math.max(...sizes)).toBe(25);
  }, 60_000);
});
