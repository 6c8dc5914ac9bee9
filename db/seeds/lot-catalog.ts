// Reference data for demo and scale lots and listings (docs/decisions/2103): real models in the
// years they were built, each with the first eight VIN characters (WMI + VDS) of a real trim, the
// plant code of position 11, its drivetrain, fuel, segment and price new. A VIN built from an
// entry (vinFor) decodes through vPIC to the stated make, model and year; the test
// tests/integration/vehicles-catalog.test.ts decodes every demo VIN to prove it.
import type { Segment } from "../../app/services/vehicles/valuation";
import {
  TRANSLITERATION,
  VIN_WEIGHTS,
  withCheckDigit,
  yearCode,
} from "../../app/services/vehicles/vin";

export type CatalogEntry = {
  make: string;
  model: string;
  /** drawing kind and listing body type */
  body: "sedan" | "coupe" | "convertible" | "hatchback" | "wagon" | "suv" | "truck" | "van";
  /** how Copart prints the body style */
  bodyStyle: string;
  drive: "FWD" | "RWD" | "AWD" | "4WD";
  fuel: "gasoline" | "diesel" | "electric" | "hybrid";
  years: [number, number];
  prefix: string;
  plant: string;
  segment: Segment;
  msrp: number;
};

type Row = [
  string,
  string,
  CatalogEntry["body"],
  string,
  CatalogEntry["drive"],
  number,
  number,
  string,
  string,
  Segment,
  number,
  CatalogEntry["fuel"]?,
];

const ROWS: Row[] = [
  ["Honda", "Accord", "sedan", "SEDAN 4D", "FWD", 2018, 2022, "1HGCV1F3", "A", "midsize", 26000],
  ["Honda", "Civic", "sedan", "SEDAN 4D", "FWD", 2016, 2020, "19XFC2F5", "E", "economy", 20500],
  ["Honda", "CR-V", "suv", "4DR SPOR", "AWD", 2017, 2022, "2HKRW2H8", "H", "compact_suv", 28500],
  ["Honda", "Pilot", "suv", "4DR SPOR", "AWD", 2016, 2022, "5FNYF6H5", "B", "midsize_suv", 36000],
  ["Honda", "Odyssey", "van", "MINIVAN", "FWD", 2018, 2024, "5FNRL6H7", "B", "minivan", 34000],
  ["Honda", "Fit", "hatchback", "HATCHBAC", "FWD", 2015, 2020, "3HGGK5H8", "M", "economy", 17500],
  ["Toyota", "Camry", "sedan", "SEDAN 4D", "FWD", 2012, 2017, "4T1BF1FK", "U", "midsize", 23500],
  ["Toyota", "Camry", "sedan", "SEDAN 4D", "FWD", 2018, 2020, "4T1B11HK", "U", "midsize", 25500],
  ["Toyota", "Corolla", "sedan", "SEDAN 4D", "FWD", 2014, 2019, "2T1BURHE", "C", "economy", 19500],
  ["Toyota", "RAV4", "suv", "4DR SPOR", "AWD", 2019, 2024, "2T3P1RFV", "C", "compact_suv", 30000],
  ["Toyota", "Tacoma", "truck", "PICKUP", "4WD", 2016, 2023, "3TMCZ5AN", "M", "pickup", 36000],
  [
    "Toyota",
    "Highlander",
    "suv",
    "4DR SPOR",
    "AWD",
    2014,
    2019,
    "5TDJKRFH",
    "S",
    "midsize_suv",
    37000,
  ],
  [
    "Toyota",
    "Prius",
    "hatchback",
    "HATCHBAC",
    "FWD",
    2016,
    2022,
    "JTDKARFU",
    "3",
    "economy",
    25500,
    "hybrid",
  ],
  ["Ford", "F-150", "truck", "SUPERCRE", "4WD", 2015, 2020, "1FTEW1EP", "F", "pickup", 43000],
  ["Ford", "Escape", "suv", "4DR SPOR", "FWD", 2013, 2019, "1FMCU0GX", "U", "compact_suv", 24500],
  ["Ford", "Explorer", "suv", "4DR SPOR", "AWD", 2016, 2019, "1FM5K8D8", "G", "midsize_suv", 38000],
  ["Ford", "Mustang", "coupe", "COUPE", "RWD", 2015, 2023, "1FA6P8TH", "5", "sports", 28000],
  ["Ford", "Fusion", "sedan", "SEDAN 4D", "FWD", 2013, 2020, "3FA6P0H7", "R", "midsize", 23500],
  [
    "Chevrolet",
    "Silverado 1500",
    "truck",
    "PICKUP",
    "4WD",
    2014,
    2018,
    "3GCUKREC",
    "G",
    "pickup",
    42000,
  ],
  [
    "Chevrolet",
    "Malibu",
    "sedan",
    "SEDAN 4D",
    "FWD",
    2016,
    2023,
    "1G1ZD5ST",
    "F",
    "midsize",
    24000,
  ],
  [
    "Chevrolet",
    "Equinox",
    "suv",
    "4DR SPOR",
    "FWD",
    2018,
    2023,
    "2GNAXKEV",
    "6",
    "compact_suv",
    26500,
  ],
  [
    "Chevrolet",
    "Tahoe",
    "suv",
    "4DR SPOR",
    "4WD",
    2015,
    2020,
    "1GNSKBKC",
    "R",
    "fullsize_suv",
    54000,
  ],
  ["Chevrolet", "Camaro", "coupe", "COUPE", "RWD", 2016, 2023, "1G1FB1RX", "0", "sports", 27500],
  ["Nissan", "Altima", "sedan", "SEDAN 4D", "FWD", 2013, 2018, "1N4AL3AP", "C", "midsize", 23500],
  ["Nissan", "Rogue", "suv", "4DR SPOR", "AWD", 2014, 2020, "5N1AT2MV", "C", "compact_suv", 26500],
  ["Nissan", "Sentra", "sedan", "SEDAN 4D", "FWD", 2013, 2019, "3N1AB7AP", "Y", "economy", 18000],
  ["Jeep", "Wrangler", "suv", "4DR SPOR", "4WD", 2018, 2024, "1C4HJXDG", "W", "midsize_suv", 37000],
  [
    "Jeep",
    "Grand Cherokee",
    "suv",
    "4DR SPOR",
    "4WD",
    2014,
    2021,
    "1C4RJFAG",
    "C",
    "midsize_suv",
    36000,
  ],
  ["Jeep", "Cherokee", "suv", "4DR SPOR", "FWD", 2014, 2022, "1C4PJMCB", "W", "compact_suv", 25500],
  ["Hyundai", "Elantra", "sedan", "SEDAN 4D", "FWD", 2017, 2020, "5NPD84LF", "H", "economy", 18500],
  ["Hyundai", "Sonata", "sedan", "SEDAN 4D", "FWD", 2015, 2019, "5NPE24AF", "H", "midsize", 22500],
  [
    "Hyundai",
    "Tucson",
    "suv",
    "4DR SPOR",
    "FWD",
    2016,
    2021,
    "KM8J33A4",
    "U",
    "compact_suv",
    24000,
  ],
  ["Kia", "Sorento", "suv", "4DR SPOR", "FWD", 2016, 2020, "5XYPG4A3", "G", "midsize_suv", 27500],
  // vPIC classes the Soul as an SUV: the listing's body type agrees with its VIN
  ["Kia", "Soul", "suv", "4DR SPOR", "FWD", 2014, 2019, "KNDJP3A5", "7", "economy", 17500],
  ["Kia", "Optima", "sedan", "SEDAN 4D", "FWD", 2016, 2020, "5XXGT4L3", "G", "midsize", 23000],
  [
    "Subaru",
    "Outback",
    "wagon",
    "4DR SPOR",
    "AWD",
    2015,
    2019,
    "4S4BSANC",
    "3",
    "compact_suv",
    28500,
  ],
  [
    "Subaru",
    "Forester",
    "suv",
    "4DR SPOR",
    "AWD",
    2014,
    2018,
    "JF2SJADC",
    "H",
    "compact_suv",
    25500,
  ],
  [
    "Tesla",
    "Model 3",
    "sedan",
    "SEDAN 4D",
    "RWD",
    2018,
    2024,
    "5YJ3E1EA",
    "F",
    "ev",
    42000,
    "electric",
  ],
  [
    "Tesla",
    "Model Y",
    "suv",
    "4DR SPOR",
    "AWD",
    2020,
    2021,
    "5YJYGDEE",
    "F",
    "ev",
    52000,
    "electric",
  ],
  [
    "Tesla",
    "Model S",
    "hatchback",
    "HATCHBAC",
    "AWD",
    2016,
    2020,
    "5YJSA1E2",
    "F",
    "luxury",
    82000,
    "electric",
  ],
  ["BMW", "328i", "sedan", "SEDAN 4D", "RWD", 2016, 2016, "WBA8E9G5", "N", "luxury", 39500],
  ["BMW", "X5", "suv", "4DR SPOR", "AWD", 2014, 2018, "5UXKR0C5", "0", "luxury", 57000],
  ["BMW", "X3", "suv", "4DR SPOR", "AWD", 2018, 2019, "5UXTR9C5", "L", "luxury", 43000],
  [
    "Mercedes-Benz",
    "C-Class",
    "sedan",
    "SEDAN 4D",
    "RWD",
    2015,
    2021,
    "55SWF4JB",
    "U",
    "luxury",
    41500,
  ],
  [
    "Volkswagen",
    "Jetta",
    "sedan",
    "SEDAN 4D",
    "FWD",
    2019,
    2021,
    "3VWC57BU",
    "M",
    "economy",
    20000,
  ],
  [
    "Volkswagen",
    "Tiguan",
    "suv",
    "4DR SPOR",
    "FWD",
    2018,
    2024,
    "3VV2B7AX",
    "M",
    "compact_suv",
    26500,
  ],
  [
    "Volkswagen",
    "Passat",
    "sedan",
    "SEDAN 4D",
    "FWD",
    // this descriptor decodes as the TDI (diesel) before 2015: the gasoline years only
    2015,
    2018,
    "1VWBN7A3",
    "C",
    "midsize",
    23000,
  ],
  ["GMC", "Sierra 1500", "truck", "PICKUP", "4WD", 2014, 2018, "3GTU2UEC", "G", "pickup", 44000],
  ["GMC", "Yukon", "suv", "4DR SPOR", "4WD", 2015, 2020, "1GKS2BKC", "R", "fullsize_suv", 56000],
  ["GMC", "Acadia", "suv", "4DR SPOR", "FWD", 2017, 2023, "1GKKNLLS", "Z", "midsize_suv", 33000],
  ["GMC", "Terrain", "suv", "4DR SPOR", "FWD", 2018, 2024, "3GKALMEV", "L", "compact_suv", 27500],
  ["Audi", "A4", "sedan", "SEDAN 4D", "AWD", 2017, 2022, "WAUENAF4", "N", "luxury", 40500],
  ["Audi", "Q5", "suv", "4DR SPOR", "AWD", 2018, 2020, "WA1BNAFY", "2", "luxury", 43500],
  ["Dodge", "Charger", "sedan", "SEDAN 4D", "RWD", 2015, 2023, "2C3CDXBG", "H", "sports", 30000],
  ["Dodge", "Challenger", "coupe", "COUPE", "RWD", 2015, 2020, "2C3CDZAG", "H", "sports", 29000],
  ["Dodge", "Durango", "suv", "4DR SPOR", "AWD", 2014, 2023, "1C4RDJAG", "C", "midsize_suv", 38500],
  ["Ram", "1500", "truck", "PICKUP", "4WD", 2013, 2018, "1C6RR7LT", "S", "pickup", 41000],
  ["Mazda", "CX-5", "suv", "4DR SPOR", "FWD", 2017, 2024, "JM3KFBCM", "0", "compact_suv", 27000],
  [
    "Mazda",
    "MX-5 Miata",
    "convertible",
    "CONVERTI",
    "RWD",
    2016,
    2024,
    "JM1NDAB7",
    "0",
    "sports",
    27500,
  ],
];

export const CATALOG: CatalogEntry[] = ROWS.map(
  ([make, model, body, bodyStyle, drive, from, to, prefix, plant, segment, msrp, fuel]) => ({
    make,
    model,
    body,
    bodyStyle,
    drive,
    years: [from, to],
    prefix,
    plant,
    segment,
    msrp,
    fuel: fuel ?? "gasoline",
  }),
);

/** The catalogue's entry for a make and model built in `year`, if there is one. */
export function catalogEntry(make: string, model: string, year: number) {
  return CATALOG.find(
    (entry) =>
      entry.make === make &&
      entry.model === model &&
      year >= entry.years[0] &&
      year <= entry.years[1],
  );
}

/** A VIN for an entry, a model year in its range and a six-digit serial, with its check digit. */
export function vinFor(entry: CatalogEntry, year: number, serial: number) {
  const draft = `${entry.prefix}0${yearCode(year)}${entry.plant}${String(serial % 1_000_000).padStart(6, "0")}`;
  return withCheckDigit(draft);
}

/**
 * Every (entry, model year) pair up to `thisYear`, with the VIN's parts for bulk seeds that build
 * VINs in SQL: `head` (positions 1–8), `tail` (10–11) and `partial`, the check-digit sum of the
 * fixed characters; `vinSql` adds the serial's share and places the digit.
 */
export function catalogYears(thisYear: number) {
  return CATALOG.flatMap((entry) => {
    const out = [];
    for (let year = entry.years[0]; year <= Math.min(entry.years[1], thisYear); year++) {
      const fixed = `${entry.prefix}0${yearCode(year)}${entry.plant}`;
      const partial = [...fixed].reduce(
        (sum, c, i) => sum + (/\d/.test(c) ? Number(c) : TRANSLITERATION[c]) * VIN_WEIGHTS[i],
        0,
      );
      out.push({ entry, year, head: entry.prefix, tail: fixed.slice(9), partial });
    }
    return out;
  });
}

/** SQL for a full VIN from text `head`/`tail`, integer `partial` and a serial below 1,000,000. */
export function vinSql(head: string, tail: string, partial: string, serial: string) {
  const share = [7, 6, 5, 4, 3, 2]
    .map((weight, i) => `${weight} * ((${serial}) / ${10 ** (5 - i)} % 10)`)
    .join(" + ");
  const digit = `((${partial}) + ${share}) % 11`;
  return `(${head} || CASE WHEN ${digit} = 10 THEN 'X' ELSE (${digit})::text END || ${tail}
    || lpad((${serial})::text, 6, '0'))`;
}

/** Exterior colours in roughly the shares US buyers choose them (white, black and gray lead). */
export const COLORS: Array<[string, number]> = [
  ["white", 24],
  ["black", 20],
  ["gray", 16],
  ["silver", 12],
  ["red", 9],
  ["blue", 9],
  ["charcoal", 3],
  ["green", 2],
  ["beige", 1],
  ["maroon", 1],
  ["orange", 1],
  ["gold", 1],
  ["brown", 1],
];

export const YARDS: Array<{
  city: string;
  state: string;
  zip: string;
  copart: string;
  iaai: string;
  /** The town the yard itself is in, where it is not the city its lots are listed under. */
  yardCity?: string;
}> = [
  { city: "Dallas", state: "TX", zip: "75211", copart: "TX - DALLAS", iaai: "Dallas" },
  { city: "Houston", state: "TX", zip: "77038", copart: "TX - HOUSTON", iaai: "Houston North" },
  {
    city: "San Antonio",
    state: "TX",
    zip: "78219",
    copart: "TX - SAN ANTONIO",
    iaai: "San Antonio",
  },
  {
    city: "Los Angeles",
    state: "CA",
    zip: "90061",
    copart: "CA - LOS ANGELES",
    iaai: "Los Angeles",
  },
  { city: "Sacramento", state: "CA", zip: "95828", copart: "CA - SACRAMENTO", iaai: "Sacramento" },
  { city: "San Diego", state: "CA", zip: "92154", copart: "CA - SAN DIEGO", iaai: "San Diego" },
  { city: "Miami", state: "FL", zip: "33054", copart: "FL - MIAMI NORTH", iaai: "Miami-North" },
  { city: "Orlando", state: "FL", zip: "32824", copart: "FL - ORLANDO SOUTH", iaai: "Orlando" },
  { city: "Tampa", state: "FL", zip: "33619", copart: "FL - TAMPA SOUTH", iaai: "Tampa" },
  {
    city: "Long Island",
    state: "NY",
    zip: "11763",
    copart: "NY - LONG ISLAND",
    iaai: "Long Island",
  },
  { city: "Albany", state: "NY", zip: "12205", copart: "NY - ALBANY", iaai: "Albany" },
  { city: "Phoenix", state: "AZ", zip: "85043", copart: "AZ - PHOENIX", iaai: "Phoenix" },
  { city: "Atlanta", state: "GA", zip: "30336", copart: "GA - ATLANTA WEST", iaai: "Atlanta" },
  {
    city: "Chicago",
    state: "IL",
    zip: "60633",
    copart: "IL - CHICAGO SOUTH",
    iaai: "Chicago-South",
  },
  { city: "Newark", state: "NJ", zip: "07105", copart: "NJ - NEWARK", iaai: "Newark" },
  { city: "Denver", state: "CO", zip: "80216", copart: "CO - DENVER", iaai: "Denver East" },
  {
    city: "Seattle",
    state: "WA",
    zip: "98032",
    copart: "WA - NORTH SEATTLE",
    iaai: "Seattle",
    yardCity: "Kent",
  },
  { city: "Charlotte", state: "NC", zip: "28208", copart: "NC - CHARLOTTE", iaai: "Charlotte" },
];

/** A deterministic generator so the demo data is the same on every machine. */
export function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)],
    weighted: <T>(list: ReadonlyArray<readonly [T, number]>) => {
      let roll = next() * list.reduce((sum, [, weight]) => sum + weight, 0);
      for (const [value, weight] of list) if ((roll -= weight) < 0) return value;
      return list[list.length - 1][0];
    },
  };
}
