// ZIP codes for transport quotes: a 5-digit ZIP is placed at the centre of its 3-digit prefix's
// area, close enough for a road-distance quote (docs/decisions/1705). Server-side only in use:
// the table is about 40 KB.
import type { UsCity } from "./us-cities";
import { ZIP_AREAS } from "./zip-areas";
import { isZipCode } from "./zip-format";

export { isZipCode };

const BY_PREFIX = new Map<string, UsCity>(
  ZIP_AREAS.map(([prefix, city, state, lat, lon]) => [prefix, { city, state, lat, lon }]),
);

/** The area of a US ZIP code ("75201" → Dallas, TX's centre), or null for one we do not know. */
export function findZipArea(zip: string): UsCity | null {
  const text = zip.trim();
  return isZipCode(text) ? (BY_PREFIX.get(text.slice(0, 3)) ?? null) : null;
}
