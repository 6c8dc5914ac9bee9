// What a decoded VIN says about a listing's body type and fuel, in the listing's own terms
// (docs/decisions/2854). Posting fills the ones a seller left empty from it, with or without
// JavaScript, so a listing never says "Not stated" for what its VIN states.
import type { BodyType, FuelType } from "./fields";

/** vPIC's body class ("Sport Utility Vehicle (SUV)/Multi-Purpose Vehicle (MPV)", "Sedan/Saloon",
 * "Pickup", "Hatchback/Liftback/Notchback", a station wagon…) as a listing body type. Vans have
 * none: null. */
export function bodyTypeFromVin(bodyStyle: string | null | undefined): BodyType | null {
  const text = bodyStyle?.toLowerCase() ?? "";
  if (!text || /\bvan\b|minivan|bus/.test(text)) return null;
  if (/suv|sport utility|crossover|cuv|mpv|wagon/.test(text)) return "suv";
  if (/pickup|truck/.test(text)) return "truck";
  if (/convertible|cabriolet|roadster/.test(text)) return "convertible";
  if (/coupe/.test(text)) return "coupe";
  if (/hatchback|liftback/.test(text)) return "hatchback";
  if (/sedan|saloon/.test(text)) return "sedan";
  return null;
}

/** vPIC's fuel ("Gasoline", "Diesel", "Electric", "Flexible Fuel Vehicle (FFV)", a hybrid…). */
export function fuelTypeFromVin(fuelType: string | null | undefined): FuelType | null {
  const text = fuelType?.toLowerCase() ?? "";
  if (!text) return null;
  if (/hybrid/.test(text)) return "hybrid";
  if (/electric/.test(text)) return "electric";
  if (/diesel/.test(text)) return "diesel";
  if (/gasoline|petrol|flex|ethanol|e85/.test(text)) return "gasoline";
  return null;
}

export type VinListingFacts = { bodyType: BodyType | null; fuelType: FuelType | null };

/** The listing facts a decoded VIN gives. */
export function listingFactsFromVin(
  decoded: { bodyStyle: string | null; fuelType: string | null } | null,
): VinListingFacts {
  return {
    bodyType: bodyTypeFromVin(decoded?.bodyStyle),
    fuelType: fuelTypeFromVin(decoded?.fuelType),
  };
}

/** The seller's input with an empty body type or fuel filled from the VIN's facts. */
export function fillFromVin<T extends { bodyType?: string | null; fuelType?: string | null }>(
  input: T,
  facts: VinListingFacts,
): T {
  return {
    ...input,
    bodyType: input.bodyType || facts.bodyType || input.bodyType,
    fuelType: input.fuelType || facts.fuelType || input.fuelType,
  };
}
