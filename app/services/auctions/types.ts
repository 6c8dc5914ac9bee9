import type { Badge } from "~/services/auctions/rules";

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
  /** Primary and secondary damage as the house names them ("FRONT END"). */
  primaryDamage: string | null;
  secondaryDamage: string | null;
  odometer: number | null;
  /** Keys with the lot, and its run condition (house-facts.ts; null: not verified). */
  hasKeys: boolean;
  runCondition: string | null;
  titleType: string;
  auctionHouse: "copart" | "iaai";
  status: string;
  badge: Badge;
  currentBid: string;
  bidCount: number;
  estimatedValue: string;
  /** The first stored picture; null shows the drawing (lotPicture in ./pictures.ts). */
  imageUrl: string | null;
  /** Body style and colour as the feed gives them: they pick the drawing. */
  bodyStyle: string | null;
  color: string | null;
  startsAt: string;
  endsAt: string;
  watching: boolean;
  leading: boolean;
  /** The viewer's own standing maximum, only on lots they lead. */
  myMax: string | null;
};

/** A lot with every field, for its page. */
export type LotDetail = AuctionVehicle & {
  trimLevel: string | null;
  locationCity: string;
  locationZip: string | null;
  yardName: string | null;
  titleState: string | null;
  runsDrives: boolean;
  /** The houses' facts (docs/decisions/3550); null when the feed did not say. */
  odometerBrand: string | null;
  itemNumber: string | null;
  gridRow: string | null;
  repairCost: string | null;
  imageUrls: string[];
};

/** One bid in a lot's history; `bidder` is masked ("Bidder 4821"). */
export type HistoryEntry = {
  id: string;
  bidder: string;
  amount: string;
  automatic: boolean;
  mine: boolean;
  createdAt: string;
};
