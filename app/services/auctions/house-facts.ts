/**
 * The houses' own lot facts, read from their feeds and shown in plain words (docs/decisions/3550):
 * the odometer brand, the run condition in the houses' three grades, body-style abbreviations and
 * one format for yard names. Plain data and functions, for browser and server.
 */

export const ODOMETER_BRANDS = ["actual", "not_actual", "exempt", "exceeds_limits"] as const;
export type OdometerBrand = (typeof ODOMETER_BRANDS)[number];

export const RUN_CONDITIONS = ["run_and_drive", "engine_start", "stationary"] as const;
export type RunCondition = (typeof RUN_CONDITIONS)[number];

/** "ACTUAL", "NOT ACTUAL", "EXEMPT", "EXCEEDS MECHANICAL LIMITS" (or their one-letter codes). */
export function parseOdometerBrand(raw: string): OdometerBrand | null {
  const text = raw.trim().toUpperCase();
  if (text === "") return null;
  if (/^NOT|NOT ACTUAL|^N$/.test(text)) return "not_actual";
  if (/EXEMPT|^E$/.test(text)) return "exempt";
  if (/EXCEED|MECHANICAL LIMIT|^X$/.test(text)) return "exceeds_limits";
  if (/ACTUAL|^A$/.test(text)) return "actual";
  return null;
}

/**
 * The run condition from Copart's "Runs/Drives" text ("RUNS AND DRIVES", "ENGINE START
 * PROGRAM", "STATIONARY"; "DEFAULT" says nothing) or, when the text says nothing, the lot
 * condition code's last letter: D run and drive, S or E engine start, N stationary.
 */
export function parseRunCondition(runsDrives: string, conditionCode = ""): RunCondition | null {
  const text = runsDrives.trim().toUpperCase();
  if (/STATIONARY|NON.?RUN|DOES NOT (RUN|START)|NO START/.test(text)) return "stationary";
  if (/ENGINE START|^STARTS?\b/.test(text)) return "engine_start";
  if (/RUN(S)?\s*(AND|&)\s*DRIVE/.test(text)) return "run_and_drive";
  const code = /([A-Z])$/.exec(conditionCode.trim().toUpperCase())?.[1];
  if (code === "D") return "run_and_drive";
  if (code === "S" || code === "E") return "engine_start";
  if (code === "N") return "stationary";
  return null;
}

const ODOMETER_LABELS: Record<OdometerBrand, string> = {
  actual: "Actual",
  not_actual: "Not actual",
  exempt: "Exempt",
  exceeds_limits: "Exceeds mechanical limits",
};

export function odometerBrandLabel(brand: string | null) {
  return brand && brand in ODOMETER_LABELS ? ODOMETER_LABELS[brand as OdometerBrand] : "Not stated";
}

/** As each house names the grade on its own lot pages. */
const RUN_LABELS: Record<"copart" | "iaai", Record<RunCondition, string>> = {
  copart: {
    run_and_drive: "Run and Drive",
    engine_start: "Engine Start",
    stationary: "Stationary",
  },
  iaai: { run_and_drive: "Run & Drive", engine_start: "Starts", stationary: "Stationary" },
};

/** The grade as the lot's house names it; "Not verified" when the feed did not say. */
export function runConditionLabel(house: "copart" | "iaai", condition: string | null) {
  const labels = RUN_LABELS[house] ?? RUN_LABELS.copart;
  return condition && condition in labels ? labels[condition as RunCondition] : "Not verified";
}

/**
 * Copart prints body styles cut to eight characters ("4DR SPOR", "CREW PIC"). Whole values
 * first, then word by word; a word not in the map is shown as the house wrote it.
 */
const BODY_STYLES: Record<string, string> = {
  "4DR SPOR": "4-door sport utility",
  "2DR SPOR": "2-door sport utility",
  "SPORTS V": "Sport utility",
  "SPORT UT": "Sport utility",
  "SEDAN 4D": "Sedan, 4-door",
  "SEDAN 2D": "Sedan, 2-door",
  "COUPE 2D": "Coupe, 2-door",
  "WAGON 4D": "Wagon, 4-door",
  HATCHBAC: "Hatchback",
  CONVERTI: "Convertible",
  "CREW PIC": "Crew cab pickup",
  "CREW CAB": "Crew cab pickup",
  CREWMAX: "Crew cab pickup",
  SUPERCRE: "Crew cab pickup",
  "CLUB CAB": "Club cab pickup",
  EXTENDED: "Extended cab pickup",
  "EXTENDED CAB": "Extended cab pickup",
  "SPORT PI": "Sport pickup",
  PICKUP: "Pickup",
  "CARGO VA": "Cargo van",
  MINIVAN: "Minivan",
  "SPORT WA": "Sport wagon",
  CABRIOLE: "Cabriolet",
  LIFTBACK: "Liftback",
  UTILITY: "Utility",
};
const BODY_WORDS: Record<string, string> = {
  "4DR": "4-door",
  "2DR": "2-door",
  "3DR": "3-door",
  "5DR": "5-door",
  "4D": "4-door",
  "2D": "2-door",
  SPOR: "sport utility",
  HATCHBAC: "hatchback",
  CONVERTI: "convertible",
  PIC: "pickup",
  PICKU: "pickup",
  PICKUP: "pickup",
  CAB: "cab",
  CREW: "crew",
  EXT: "extended",
  WAGO: "wagon",
  WAGON: "wagon",
  SEDAN: "sedan",
  COUPE: "coupe",
  VAN: "van",
};

export function expandBodyStyle(raw: string | null): string | null {
  if (!raw) return null;
  const text = raw.trim().toUpperCase().replace(/\s+/g, " ");
  if (text === "") return null;
  const whole = BODY_STYLES[text];
  if (whole) return whole;
  const words = text.split(" ").map((word) => BODY_WORDS[word] ?? word.toLowerCase());
  const phrase = words.join(" ");
  return phrase[0].toUpperCase() + phrase.slice(1);
}

function titleCase(text: string) {
  return text
    .toLowerCase()
    .replace(/(^|[\s-])([a-z])/g, (_, lead, letter) => lead + letter.toUpperCase());
}

/**
 * One format for a yard, whatever the feed wrote: "Copart Sacramento", "IAAI Seattle" (the state
 * is in the location beside it). Copart writes "CA - SACRAMENTO", older rows "Copart Dallas";
 * IAAI writes the branch ("Seattle").
 */
export function yardLabel(house: string, name: string | null) {
  const brand = house === "iaai" ? "IAAI" : "Copart";
  if (!name || name.trim() === "") return null;
  const place = name
    .trim()
    .replace(/^[A-Za-z]{2}\s*-\s*/, "")
    .replace(new RegExp(`^${brand}\\s+`, "i"), "");
  return `${brand} ${titleCase(place)}`;
}
