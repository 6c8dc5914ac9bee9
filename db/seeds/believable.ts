// The rules a believable catalogue keeps (docs/decisions/2853). The demo and scale generators draw
// damage, title and runs-and-drives only from the combinations below, price from the value model,
// and words in a listing's title or description only where they fit its condition and mileage;
// tests/integration/seed-believable.test.ts checks every seeded lot, sold result and listing
// against the same rules, so a generator that drifts is caught.
import {
  MILES_PER_YEAR,
  auctionValue,
  retailValue,
  type Segment,
} from "../../app/services/vehicles/valuation";

export type TitleType =
  "clean" | "salvage" | "rebuilt" | "certificate_of_destruction" | "parts_only" | "other";
export type Severity = 1 | 2 | 3;

/**
 * Copart's primary damage wordings: the damage type, how severe (1 light, 2 moderate, 3 severe),
 * the titles such a car can carry, whether it can still run and drive, and how often it is seen
 * (weight). A certificate of destruction or a parts-only title goes with severe damage only; a
 * light scrape or normal wear never makes a car junk, and a burned, flooded, stripped, rolled or
 * mechanically failed car does not run and drive.
 */
export const DAMAGE_RULES: Record<
  string,
  { type: string; severity: Severity; titles: TitleType[]; canRun: boolean; weight: number }
> = {
  "FRONT END": {
    type: "collision",
    severity: 2,
    titles: ["clean", "salvage", "rebuilt"],
    canRun: true,
    weight: 30,
  },
  "REAR END": {
    type: "collision",
    severity: 2,
    titles: ["clean", "salvage", "rebuilt"],
    canRun: true,
    weight: 10,
  },
  SIDE: {
    type: "collision",
    severity: 2,
    titles: ["clean", "salvage", "rebuilt"],
    canRun: true,
    weight: 10,
  },
  "ALL OVER": {
    type: "collision",
    severity: 3,
    titles: ["salvage", "certificate_of_destruction", "parts_only"],
    canRun: true,
    weight: 5,
  },
  ROLLOVER: {
    type: "collision",
    severity: 3,
    titles: ["salvage", "certificate_of_destruction", "parts_only"],
    canRun: false,
    weight: 2,
  },
  "WATER/FLOOD": {
    type: "flood",
    severity: 3,
    titles: ["salvage", "certificate_of_destruction"],
    canRun: false,
    weight: 5,
  },
  HAIL: { type: "hail", severity: 1, titles: ["clean", "salvage"], canRun: true, weight: 4 },
  THEFT: { type: "theft", severity: 2, titles: ["clean", "salvage"], canRun: true, weight: 2 },
  STRIPPED: {
    type: "theft",
    severity: 3,
    titles: ["salvage", "parts_only"],
    canRun: false,
    weight: 1,
  },
  BURN: {
    type: "fire",
    severity: 3,
    titles: ["salvage", "certificate_of_destruction", "parts_only"],
    canRun: false,
    weight: 2,
  },
  MECHANICAL: {
    type: "mechanical",
    severity: 2,
    titles: ["clean", "salvage", "rebuilt"],
    canRun: false,
    weight: 8,
  },
  VANDALISM: {
    type: "vandalism",
    severity: 1,
    titles: ["clean", "salvage"],
    canRun: true,
    weight: 2,
  },
  "MINOR DENT/SCRATCHES": {
    type: "other",
    severity: 1,
    titles: ["clean", "rebuilt"],
    canRun: true,
    weight: 7,
  },
  "NORMAL WEAR": {
    type: "other",
    severity: 1,
    titles: ["clean", "rebuilt"],
    canRun: true,
    weight: 7,
  },
};

/** How often each title is seen among the titles a damage allows (salvage leads at auction). */
const TITLE_WEIGHT: Record<TitleType, number> = {
  clean: 3,
  salvage: 6,
  rebuilt: 1,
  certificate_of_destruction: 2,
  parts_only: 2,
  other: 0,
};

/** A car with a junk title is sold for parts: it is never offered as running. */
const JUNK_TITLES: TitleType[] = ["certificate_of_destruction", "parts_only"];

/** How likely a car that can run does, by severity: most light damage still drives. */
const RUNS_SHARE: Record<Severity, number> = { 1: 0.9, 2: 0.6, 3: 0.35 };

export type LotCombo = {
  damage: string;
  type: string;
  title: TitleType;
  runs: boolean;
  weight: number;
};

/**
 * Every (primary damage, title, runs and drives) the rules allow, with how often it is drawn (a
 * relative weight). Generators pick only from this list.
 */
export function lotCombos(): LotCombo[] {
  return Object.entries(DAMAGE_RULES).flatMap(([damage, rule]) => {
    const titles = rule.titles.map((title) => [title, TITLE_WEIGHT[title]] as const);
    const titleTotal = titles.reduce((sum, [, w]) => sum + w, 0);
    return titles.flatMap(([title, titleWeight]) => {
      const share = (rule.weight * titleWeight) / titleTotal;
      const canRun = rule.canRun && !JUNK_TITLES.includes(title);
      const runs = canRun ? RUNS_SHARE[rule.severity] : 0;
      const out: LotCombo[] = [];
      if (runs > 0) out.push({ damage, type: rule.type, title, runs: true, weight: share * runs });
      if (runs < 1)
        out.push({ damage, type: rule.type, title, runs: false, weight: share * (1 - runs) });
      return out;
    });
  });
}

/**
 * The secondary damages a primary damage may carry: only on moderate or severe damage, another
 * damage no more severe than the first (not "normal wear"), and none that stops a car that runs.
 */
export function secondaryDamages(primary: string, runs: boolean) {
  const severity = DAMAGE_RULES[primary]?.severity ?? 0;
  if (severity < 2) return [];
  return Object.entries(DAMAGE_RULES)
    .filter(
      ([text, rule]) =>
        text !== primary &&
        text !== "NORMAL WEAR" &&
        rule.severity <= severity &&
        (rule.canRun || !runs),
    )
    .map(([text]) => text);
}

/** Miles a year, from the least to the most a car is believably driven. */
export const MILES_A_YEAR = { min: 3_000, max: 25_000 } as const;

/** A sold price within this share of the value model's hammer estimate for the lot. */
export const SOLD_PRICE_BAND = { min: 0.7, max: 1.35 } as const;

/** A car that runs and drives is worth more than scrap: never sold below this share of retail. */
export const RUNNER_FLOOR_SHARE = 0.1;

export type LotFacts = {
  lot: string;
  year: number;
  odometer: number | null;
  primaryDamage: string | null;
  secondaryDamage: string | null;
  damageType: string;
  titleType: string;
  runsDrives: boolean;
  estimatedValue: number | null;
  repairCost: number | null;
  status: string;
  soldPrice: number | null;
};

/**
 * What a buyer would not believe about a lot, one sentence each (empty when believable). `model`
 * is the catalogue's clean retail value for this car at its age and mileage, when known.
 */
export function lotProblems(lot: LotFacts, thisYear: number, model?: { retail: number }) {
  const problems: string[] = [];
  const say = (text: string) => problems.push(`${lot.lot}: ${text}`);
  const rule = lot.primaryDamage ? DAMAGE_RULES[lot.primaryDamage] : undefined;
  if (!rule) say(`unknown damage ${lot.primaryDamage}`);
  else {
    if (rule.type !== lot.damageType) say(`${lot.primaryDamage} is not ${lot.damageType} damage`);
    if (!rule.titles.includes(lot.titleType as TitleType))
      say(`${lot.primaryDamage} damage with a ${lot.titleType} title`);
    if (lot.runsDrives && !rule.canRun) say(`${lot.primaryDamage} damage marked runs and drives`);
  }
  if (lot.runsDrives && JUNK_TITLES.includes(lot.titleType as TitleType))
    say(`a ${lot.titleType} title marked runs and drives`);
  if (lot.secondaryDamage && lot.primaryDamage) {
    if (!secondaryDamages(lot.primaryDamage, lot.runsDrives).includes(lot.secondaryDamage))
      say(`secondary ${lot.secondaryDamage} with primary ${lot.primaryDamage}`);
  }
  if (lot.odometer !== null) {
    const years = Math.max(thisYear - lot.year, 0) + 0.5;
    const perYear = lot.odometer / years;
    if (perYear < MILES_A_YEAR.min / 2 || perYear > MILES_A_YEAR.max)
      say(`${lot.odometer} miles on a ${lot.year}`);
  }
  const retail = lot.estimatedValue;
  if (retail !== null && model && (retail < model.retail * 0.8 || retail > model.retail * 1.25))
    say(`estimated value ${retail} for a car the model puts at ${model.retail}`);
  if (retail !== null && lot.repairCost !== null && lot.repairCost >= retail)
    say(`repairs of ${lot.repairCost} on a car worth ${retail}`);
  if (lot.status === "sold" && lot.soldPrice !== null && retail !== null) {
    const expected = auctionValue({
      retail,
      primaryDamage: lot.primaryDamage,
      damageType: lot.damageType,
      titleType: lot.titleType,
      runsDrives: lot.runsDrives,
    });
    if (
      lot.soldPrice < expected * SOLD_PRICE_BAND.min ||
      lot.soldPrice > expected * SOLD_PRICE_BAND.max
    )
      say(`sold for ${lot.soldPrice} where the damage, title and condition say about ${expected}`);
    if (lot.runsDrives && lot.soldPrice < retail * RUNNER_FLOOR_SHARE)
      say(`a runner worth ${retail} sold for ${lot.soldPrice}`);
    if (lot.soldPrice >= retail) say(`sold for ${lot.soldPrice}, at or above its retail ${retail}`);
  }
  return problems;
}

// ---- Community listings -------------------------------------------------------------------

export type Condition = "excellent" | "good" | "fair" | "poor";

/** An asking price is the retail value times this, by condition. */
export const CONDITION_SHARE: Record<Condition, number> = {
  excellent: 1.08,
  good: 1,
  fair: 0.85,
  poor: 0.65,
};

/** An asking price within this share of the model's price for the car (before any haggling). */
export const ASKING_PRICE_BAND = { min: 0.8, max: 1.25 } as const;

/** The miles a car of this model year would have by now (12,000 a year, half a year at least). */
export function expectedMileage(year: number, thisYear: number) {
  return MILES_PER_YEAR * Math.max(thisYear - year, 0.5);
}

type ListingSituation = {
  condition: Condition;
  mileage: number | null;
  year: number;
  thisYear: number;
};

const ratio = (s: ListingSituation) =>
  s.mileage === null ? null : s.mileage / expectedMileage(s.year, s.thisYear);
const cared = (s: ListingSituation) => s.condition === "excellent" || s.condition === "good";

/**
 * Words a seller puts in a title or a description, and when they are true. "Low miles" needs
 * fewer than 60,000 and under 70 % of the usual for the car's age; "Runs great" or "Garage kept"
 * is no poor or fair car; "Needs some work" no excellent or good one.
 */
export const CLAIMS: Array<{ text: string; fits: (s: ListingSituation) => boolean }> = [
  { text: "One owner", fits: () => true },
  { text: "Clean title", fits: () => true },
  { text: "New tires", fits: () => true },
  { text: "Priced to sell", fits: () => true },
  {
    text: "Low miles",
    fits: (s) => s.mileage !== null && s.mileage < 60_000 && (ratio(s) ?? 1) <= 0.7,
  },
  { text: "Highway miles", fits: (s) => (ratio(s) ?? 0) >= 1.15 },
  { text: "Runs great", fits: cared },
  { text: "Well maintained", fits: cared },
  { text: "Garage kept", fits: cared },
  { text: "Like new", fits: (s) => s.condition === "excellent" },
  { text: "Needs some work", fits: (s) => !cared(s) },
  { text: "Sold as is", fits: (s) => !cared(s) },
  { text: "Check engine light on", fits: (s) => !cared(s) },
  { text: "Minor dents", fits: (s) => s.condition !== "excellent" },
];

/** The title claims a generator may use for this car: those that fit it. */
export function fittingClaims(s: ListingSituation, among: string[]) {
  return among.filter((text) => CLAIMS.find((c) => c.text === text)?.fits(s) ?? true);
}

export type ListingFacts = {
  listing: string;
  title: string;
  description: string;
  year: number;
  mileage: number | null;
  condition: Condition;
  /** the asking price in US dollars */
  priceUsd: number;
};

/**
 * What a buyer would not believe about a listing, one sentence each. `model` is the catalogue's
 * clean retail value for this car at its age and mileage, when known.
 */
export function listingProblems(
  listing: ListingFacts,
  thisYear: number,
  model?: { retail: number },
) {
  const problems: string[] = [];
  const say = (text: string) => problems.push(`${listing.listing}: ${text}`);
  const situation = { ...listing, thisYear };
  const words = `${listing.title} ${listing.description}`.toLowerCase();
  for (const claim of CLAIMS) {
    if (words.includes(claim.text.toLowerCase()) && !claim.fits(situation))
      say(
        `"${claim.text}" on a ${listing.condition} ${listing.year} with ${listing.mileage ?? "unstated"} miles`,
      );
  }
  if (listing.mileage !== null) {
    const years = Math.max(thisYear - listing.year, 0) + 0.5;
    const perYear = listing.mileage / years;
    if (perYear < MILES_A_YEAR.min / 2 || perYear > MILES_A_YEAR.max)
      say(`${listing.mileage} miles on a ${listing.year}`);
  }
  if (model) {
    const expected = model.retail * CONDITION_SHARE[listing.condition];
    if (
      listing.priceUsd < expected * ASKING_PRICE_BAND.min ||
      listing.priceUsd > expected * ASKING_PRICE_BAND.max
    )
      say(
        `asking US$${Math.round(listing.priceUsd)} for a ${listing.condition} ${listing.year} with ${listing.mileage ?? "unstated"} miles the model puts at US$${Math.round(expected)}`,
      );
  }
  return problems;
}

/** The model's clean retail value for a catalogue car at an age and mileage (a thin re-export). */
export function modelRetail(
  entry: { msrp: number; segment: Segment },
  year: number,
  mileage: number | null,
  thisYear: number,
) {
  return retailValue({ msrp: entry.msrp, segment: entry.segment, age: thisYear - year, mileage });
}
