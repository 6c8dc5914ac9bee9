// Reference data for demo and scale lots: real makes and models, yards, damage and titles.

export const CATALOG: Array<{ make: string; models: string[]; body: string }> = [
  {
    make: "Ford",
    models: ["F-150", "Escape", "Explorer", "Fusion", "Mustang", "Focus"],
    body: "truck",
  },
  {
    make: "Chevrolet",
    models: ["Silverado 1500", "Malibu", "Equinox", "Camaro", "Tahoe"],
    body: "truck",
  },
  {
    make: "Toyota",
    models: ["Camry", "Corolla", "RAV4", "Tacoma", "Highlander", "Prius"],
    body: "sedan",
  },
  { make: "Honda", models: ["Civic", "Accord", "CR-V", "Pilot", "Odyssey"], body: "sedan" },
  { make: "Nissan", models: ["Altima", "Rogue", "Sentra", "Frontier", "Maxima"], body: "sedan" },
  { make: "BMW", models: ["330i", "X5", "X3", "M4", "530i"], body: "coupe" },
  { make: "Tesla", models: ["Model 3", "Model Y", "Model S"], body: "sedan" },
  { make: "Jeep", models: ["Wrangler", "Grand Cherokee", "Cherokee", "Compass"], body: "suv" },
  { make: "Dodge", models: ["Charger", "Challenger", "Durango", "Ram 1500"], body: "coupe" },
  { make: "Hyundai", models: ["Elantra", "Sonata", "Tucson", "Santa Fe"], body: "sedan" },
  { make: "Kia", models: ["Optima", "Sorento", "Soul", "Sportage"], body: "suv" },
  { make: "Subaru", models: ["Outback", "Forester", "Impreza", "WRX"], body: "suv" },
  { make: "Mercedes-Benz", models: ["C 300", "E 350", "GLC 300", "GLE 350"], body: "coupe" },
  { make: "Volkswagen", models: ["Jetta", "Passat", "Tiguan", "Atlas"], body: "sedan" },
  { make: "GMC", models: ["Sierra 1500", "Acadia", "Yukon", "Terrain"], body: "truck" },
  { make: "Audi", models: ["A4", "Q5", "A6", "Q7"], body: "coupe" },
];

export const YARDS: Array<{
  city: string;
  state: string;
  zip: string;
  copart: string;
  iaai: string;
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
  { city: "Seattle", state: "WA", zip: "98032", copart: "WA - NORTH SEATTLE", iaai: "Seattle" },
  { city: "Charlotte", state: "NC", zip: "28208", copart: "NC - CHARLOTTE", iaai: "Charlotte" },
];

/** Copart-style primary damage texts, each with its damage type. */
export const DAMAGES: Array<{ text: string; type: string }> = [
  { text: "FRONT END", type: "collision" },
  { text: "REAR END", type: "collision" },
  { text: "SIDE", type: "collision" },
  { text: "ALL OVER", type: "collision" },
  { text: "ROLLOVER", type: "collision" },
  { text: "WATER/FLOOD", type: "flood" },
  { text: "HAIL", type: "hail" },
  { text: "THEFT", type: "theft" },
  { text: "STRIPPED", type: "theft" },
  { text: "BURN", type: "fire" },
  { text: "MECHANICAL", type: "mechanical" },
  { text: "VANDALISM", type: "vandalism" },
  { text: "MINOR DENT/SCRATCHES", type: "other" },
  { text: "NORMAL WEAR", type: "other" },
];

export const TITLES = [
  "clean",
  "salvage",
  "salvage",
  "salvage",
  "rebuilt",
  "certificate_of_destruction",
  "parts_only",
];
export const COLORS = ["red", "blue", "silver", "black", "white", "green", "orange", "gold"];

/** The local images that exist for a body style (public/images/lots). */
export const IMAGES: Record<string, string[]> = {
  sedan: ["sedan-orange", "sedan-red", "sedan-silver", "sedan-white"],
  suv: ["suv-black", "suv-blue", "suv-gold", "suv-green"],
  truck: ["truck-orange", "truck-red", "truck-silver", "truck-white"],
  coupe: ["coupe-black", "coupe-blue", "coupe-gold", "coupe-green"],
};

const VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";

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
    vin: () =>
      Array.from({ length: 17 }, () => VIN_CHARS[Math.floor(next() * VIN_CHARS.length)]).join(""),
  };
}
