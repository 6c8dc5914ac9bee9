// Community listing enums and display helpers, shared by the browser and the server. The
// posting rules (allowance, photo and year bounds) are in ./rules.

export const CURRENCIES = ["USD", "CAD", "MXN"] as const;
export const CONDITIONS = ["excellent", "good", "fair", "poor"] as const;
export const FUEL_TYPES = ["gasoline", "diesel", "electric", "hybrid"] as const;
export const TRANSMISSIONS = ["automatic", "manual"] as const;
export const DRIVETRAINS = ["FWD", "RWD", "AWD", "4WD"] as const;
export const BODY_TYPES = ["sedan", "suv", "truck", "coupe", "convertible", "hatchback"] as const;
export const COUNTRIES = ["US", "CA", "MX"] as const;

export type Currency = (typeof CURRENCIES)[number];
export type Condition = (typeof CONDITIONS)[number];
export type FuelType = (typeof FUEL_TYPES)[number];
export type Transmission = (typeof TRANSMISSIONS)[number];
export type Drivetrain = (typeof DRIVETRAINS)[number];
export type BodyType = (typeof BODY_TYPES)[number];
export type Country = (typeof COUNTRIES)[number];

export const CURRENCY_NAMES: Record<Currency, string> = {
  USD: "US dollars (USD)",
  CAD: "Canadian dollars (CAD)",
  MXN: "Mexican pesos (MXN)",
};

export const COUNTRY_NAMES: Record<Country, string> = {
  US: "United States",
  CA: "Canada",
  MX: "Mexico",
};

export const BODY_TYPE_LABELS: Record<BodyType, string> = {
  sedan: "Sedan",
  suv: "SUV",
  truck: "Truck",
  coupe: "Coupe",
  convertible: "Convertible",
  hatchback: "Hatchback",
};

/** The makes offered by the finder and the filters; a listing may carry any make. */
export const POPULAR_MAKES = [
  "Acura",
  "BMW",
  "Chevrolet",
  "Dodge",
  "Ford",
  "GMC",
  "Honda",
  "Hyundai",
  "Jeep",
  "Kia",
  "Mazda",
  "Mercedes-Benz",
  "Nissan",
  "Ram",
  "Subaru",
  "Tesla",
  "Toyota",
  "Volkswagen",
] as const;

/** The Vehicle Auto Finder's year choices: the current year and the 14 before it. */
export function finderYears(now = new Date()) {
  const current = now.getUTCFullYear();
  return Array.from({ length: 15 }, (_, i) => current - i);
}

// Building an Intl formatter costs far more than formatting with one: each is made once and
// reused (a page of cards formatted three fields per card with new ones; docs/decisions/1906).
const priceFormats = new Map<string, Intl.NumberFormat>();
const MILEAGE_FORMAT = new Intl.NumberFormat("en-US");

export function formatPrice(price: string, currency: Currency) {
  const digits = price.endsWith(".00") ? 0 : 2;
  const key = `${currency}${digits}`;
  let format = priceFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      maximumFractionDigits: digits,
    });
    priceFormats.set(key, format);
  }
  return format.format(Number(price));
}

export function formatMileage(mileage: number | null) {
  if (mileage === null) return "Mileage not stated";
  return `${MILEAGE_FORMAT.format(mileage)} mi`;
}

export function capitalise(value: string) {
  return value.charAt(0).toUpperCase() + value.slice(1);
}

export const CONDITION_BADGE: Record<Condition, string> = {
  excellent: "bg-emerald-100 text-emerald-800",
  good: "bg-sky-100 text-sky-800",
  fair: "bg-amber-100 text-amber-900",
  poor: "bg-red-100 text-red-800",
};
