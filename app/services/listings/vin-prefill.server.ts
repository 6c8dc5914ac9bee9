// The posting form's fill-in from a VIN as it is typed (docs/decisions/2854).
import { decodeVin } from "~/services/vehicles/decode.server";
import type { DecodedVin } from "~/services/vehicles/types";
import { hasValidCheckDigit, isWellFormedVin, normalizeVin } from "~/services/vehicles/vin";
import type { BodyType, FuelType } from "./fields";
import { listingFactsFromVin } from "./vin-fill";
import { log } from "~/platform/log.server";

export type VinPrefill = {
  vin: string;
  decoded: boolean;
  year: number | null;
  make: string | null;
  model: string | null;
  bodyType: BodyType | null;
  fuelType: FuelType | null;
};

/**
 * What the posting form may fill in from a VIN as it is typed (docs/decisions/2854): null when it
 * is not 17 well-formed characters or fails its check digit; a decoder failure reads as "nothing
 * known", since the seller can always choose by hand.
 */
export async function vinPrefill(raw: string): Promise<VinPrefill | null> {
  const vin = normalizeVin(raw);
  if (!isWellFormedVin(vin) || !hasValidCheckDigit(vin)) return null;
  let decoded: DecodedVin | null = null;
  try {
    decoded = await decodeVin(vin);
  } catch (error) {
    log().error({ err: error }, "VIN decoding failed");
  }
  const facts = listingFactsFromVin(decoded?.decoded ? decoded : null);
  return {
    vin,
    decoded: Boolean(decoded?.decoded),
    year: decoded?.modelYear ?? null,
    make: decoded?.make ?? null,
    model: decoded?.model ?? null,
    ...facts,
  };
}
