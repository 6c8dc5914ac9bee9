import { findCity, type UsCity } from "~/services/affiliates/us-cities";

const EARTH_RADIUS_MILES = 3958.8;
/** Roads wind: driving miles run about this much longer than the great circle (see 0702). */
export const ROAD_FACTOR = 1.12;

export function greatCircleMiles(a: Pick<UsCity, "lat" | "lon">, b: Pick<UsCity, "lat" | "lon">) {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Estimated road miles between two cities, whole miles (at least 1). */
export function roadMiles(a: Pick<UsCity, "lat" | "lon">, b: Pick<UsCity, "lat" | "lon">) {
  return Math.max(1, Math.round(greatCircleMiles(a, b) * ROAD_FACTOR));
}

/** Road miles between two cities of the bundled table, or null when either is unknown. */
export function roadMilesBetween(
  from: { city: string; state: string },
  to: { city: string; state: string },
) {
  const a = findCity(from.city, from.state);
  const b = findCity(to.city, to.state);
  return a && b ? roadMiles(a, b) : null;
}
