import type { Badge } from "~/modules/auctions/rules";

/** A lot as the list, the lot page and the API show it (plain data, for browser and server). */
export type AuctionVehicle = {
  id: string;
  lotNumber: string;
  year: number;
  make: string;
  model: string;
  vin: string;
  location: string;
  locationState: string;
  damageType: string;
  primaryDamage: string | null;
  titleType: string;
  auctionHouse: "copart" | "iaai";
  status: string;
  badge: Badge;
  currentBid: string;
  bidCount: number;
  estimatedValue: string;
  imageUrl: string | null;
  startsAt: string;
  endsAt: string;
  watching: boolean;
  leading: boolean;
  /** The viewer's own standing maximum, only on lots they lead. */
  myMax: string | null;
};
