// What a transport order says about a lot's vehicle: its label, house and lot number, body type
// and the board's vehicle type.
import { type VehicleType } from "~/models/affiliate.server";
import { type Lot } from "~/models/auction.server";
import { decodeVin } from "~/services/vehicles/decode.server";
import { log } from "~/platform/log.server";

/**
 * A body style in the board's three vehicle types, when it is one of them: the decoder's names
 * ("Sport Utility Vehicle (SUV)/Multi-Purpose Vehicle (MPV)", "Pickup", "Sedan/Saloon") and the
 * feeds' abbreviations ("4DR SPOR" is a sport utility, "CREW PICKUP", "SEDAN 4D").
 */
export function vehicleTypeOf(bodyStyle: string | null | undefined): VehicleType | null {
  const text = (bodyStyle ?? "").toLowerCase();
  if (/pickup|truck|crew|\bcab\b|cab chassis/.test(text)) return "truck";
  if (/\bsuv\b|sport ut|\bspor|utility|crossover|\bcuv\b|\bmpv\b|minivan|\bvan\b|wagon/.test(text))
    return "suv";
  if (
    /sedan|saloon|coupe|hatch|liftback|notchback|convertible|cabriolet|roadster|[24]dr|[24]d\b/.test(
      text,
    )
  )
    return "sedan";
  return null;
}

/**
 * What a transport order says about a lot's vehicle: its house and lot number, and the body type
 * decoded from its VIN (the feed's body style when the VIN does not decode or the decoder is
 * down), with the board's vehicle type from it.
 */
export async function vehicleFacts(lot: Lot) {
  let decoded: string | null = null;
  try {
    decoded = (await decodeVin(lot.vin))?.bodyStyle ?? null;
  } catch (error) {
    log().error({ err: error, lot_id: String(lot.id) }, "VIN decoding failed");
  }
  const bodyStyle = decoded ?? lot.bodyStyle;
  return {
    vehicle: { auctionHouse: lot.auctionHouse, lotNumber: lot.lotNumber, bodyStyle },
    vehicleType: vehicleTypeOf(decoded) ?? vehicleTypeOf(lot.bodyStyle),
  };
}

export function lotLabel(lot: Lot) {
  return `${lot.year} ${lot.make} ${lot.model}${lot.trimLevel ? ` ${lot.trimLevel}` : ""}`;
}
