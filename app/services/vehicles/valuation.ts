// A plain value model for demo data and the likely-price fallback (docs/decisions/2103): retail
// value from the price new, the segment's yearly retention, age and mileage; an auction price
// from the retail value, the damage, the title and whether it runs. The retention figures are
// set against what such cars fetch on the used market (docs/decisions/2853).

export const SEGMENTS = {
  economy: { label: "Compact car", retention: 0.955 },
  midsize: { label: "Midsize car", retention: 0.94 },
  compact_suv: { label: "Compact SUV", retention: 0.94 },
  midsize_suv: { label: "Midsize SUV", retention: 0.935 },
  fullsize_suv: { label: "Full-size SUV", retention: 0.935 },
  pickup: { label: "Pickup", retention: 0.945 },
  minivan: { label: "Minivan", retention: 0.925 },
  sports: { label: "Sports car", retention: 0.935 },
  luxury: { label: "Luxury", retention: 0.905 },
  ev: { label: "Electric", retention: 0.9 },
} as const;

/** What a car keeps of its price new when it is driven away (then the segment's retention). */
export const DRIVE_AWAY_SHARE = 0.9;
export type Segment = keyof typeof SEGMENTS;

/** Miles a year an average car covers (FHWA puts it between 11,000 and 14,000). */
export const MILES_PER_YEAR = 12_000;

const round50 = (dollars: number) => Math.round(dollars / 50) * 50;

/**
 * Clean-title retail value in whole dollars: 10 % off when driven away, then the segment's
 * retention per year; ±20 % at most for mileage far from the average, 25 % of value per
 * 100,000 miles of difference.
 */
export function retailValue(input: {
  msrp: number;
  segment: Segment;
  age: number;
  mileage: number | null;
}) {
  const age = Math.max(0, input.age);
  const base = input.msrp * DRIVE_AWAY_SHARE * Math.pow(SEGMENTS[input.segment].retention, age);
  const expected = MILES_PER_YEAR * Math.max(age, 0.5);
  const difference = input.mileage === null ? 0 : input.mileage - expected;
  const mileage = Math.min(1.2, Math.max(0.8, 1 - (difference / 100_000) * 0.25));
  return Math.max(1500, round50(base * mileage));
}

/** What a salvage buyer pays, as a share of retail, by the primary damage (Copart wording). */
export const DAMAGE_SHARE: Record<string, number> = {
  "FRONT END": 0.34,
  "REAR END": 0.44,
  SIDE: 0.4,
  "ALL OVER": 0.2,
  ROLLOVER: 0.16,
  "WATER/FLOOD": 0.2,
  HAIL: 0.58,
  THEFT: 0.5,
  STRIPPED: 0.24,
  BURN: 0.08,
  MECHANICAL: 0.45,
  VANDALISM: 0.55,
  "MINOR DENT/SCRATCHES": 0.68,
  "NORMAL WEAR": 0.74,
};
const DAMAGE_TYPE_SHARE: Record<string, number> = {
  collision: 0.36,
  flood: 0.2,
  hail: 0.58,
  theft: 0.45,
  fire: 0.08,
  mechanical: 0.45,
  vandalism: 0.55,
  other: 0.6,
};
export const TITLE_SHARE: Record<string, number> = {
  clean: 1,
  salvage: 0.86,
  rebuilt: 0.92,
  certificate_of_destruction: 0.6,
  parts_only: 0.5,
  other: 0.85,
};

/** The likely hammer price in whole dollars (the model's guess, before any comparable sale). */
export function auctionValue(input: {
  retail: number;
  primaryDamage: string | null;
  damageType: string;
  titleType: string;
  runsDrives: boolean;
}) {
  const byText = input.primaryDamage ? DAMAGE_SHARE[input.primaryDamage.toUpperCase()] : undefined;
  const damage = byText ?? DAMAGE_TYPE_SHARE[input.damageType] ?? 0.5;
  const title = TITLE_SHARE[input.titleType] ?? 0.85;
  const runs = input.runsDrives ? 1 : 0.82;
  return Math.max(100, Math.round((input.retail * damage * title * runs) / 25) * 25);
}

/** Repair estimate in whole dollars: most of the value the damage took, at shop rates. */
export function repairEstimate(retail: number, auction: number) {
  return Math.max(300, Math.round(((retail - auction) * 0.55) / 50) * 50);
}
