// Where a transport order goes: the pickup at a lot's yard, and the delivery city, ZIP area or
// export port, with the road miles between them.
import {
  findCity,
  findCityByLabel,
  largestCityInState,
  type UsCity,
} from "~/services/affiliates/us-cities";
import { type ServiceType } from "~/models/affiliate.server";
import { type Lot } from "~/models/auction.server";
import { AffiliateError } from "~/services/affiliates/applications.server";
import { roadMiles } from "~/services/affiliates/distance";
import { findZipArea, isZipCode } from "~/services/affiliates/zips";
import { findYard } from "~/services/auctions/yards.server";

/** What the route of an order is measured from. */
export type RouteInput = {
  serviceType: ServiceType;
  pickup: UsCity;
  delivery?: string;
  exportPort?: string;
  destinationCountry?: string;
};

export function resolveDestination(input: RouteInput) {
  if (input.serviceType === "shipping") {
    const place = (input.delivery ?? "").trim();
    // a ZIP code goes to the centre of its area, as in the all-in estimator (record 1705)
    if (isZipCode(place)) {
      const delivery = findZipArea(place);
      if (!delivery)
        throw new AffiliateError(
          400,
          `We do not know ZIP code ${place}. Check it, or enter a city as "Dallas, TX".`,
        );
      return { delivery, zip: place.slice(0, 5), miles: roadMiles(input.pickup, delivery) };
    }
    const delivery = findCityByLabel(place);
    if (!delivery)
      throw new AffiliateError(400, 'Enter a 5-digit ZIP code, or a city as "Dallas, TX"');
    return { delivery, zip: null, miles: roadMiles(input.pickup, delivery) };
  }
  const port = findCityByLabel(input.exportPort ?? "");
  if (!port?.port) throw new AffiliateError(400, "Choose an export port from the list");
  if (!input.destinationCountry) throw new AffiliateError(400, "Choose a destination country");
  return { port, miles: roadMiles(input.pickup, port) };
}

/**
 * Where a won lot is picked up, measured from the yard's own ZIP (record 3532): the yards table's
 * ZIP and city, else the lot's ZIP, placed at its ZIP area's centre (record 1705); named by the
 * yard's city ("Kent, WA"), not the metro the lot is listed under. Without a known ZIP, the lot's
 * city from the bundled table.
 */
export async function yardPickup(lot: Lot): Promise<UsCity> {
  const yard = await findYard(lot.auctionHouse, lot.yardName);
  const area = findZipArea(yard?.zip ?? lot.locationZip ?? "");
  if (!area) return lotPickup(lot);
  return {
    city: yard?.city ?? lot.locationCity,
    state: yard?.state ?? lot.locationState,
    lat: area.lat,
    lon: area.lon,
  };
}

export function lotPickup(lot: Lot): UsCity {
  // a yard town missing from the table is measured from its state's largest listed city
  const city =
    findCity(lot.locationCity, lot.locationState) ?? largestCityInState(lot.locationState);
  if (!city)
    throw new AffiliateError(400, `No coordinates for ${lot.locationCity}, ${lot.locationState}`);
  return city;
}
