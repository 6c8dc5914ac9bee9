import * as z from "zod";
import {
  BODY_TYPES,
  CONDITIONS,
  COUNTRIES,
  CURRENCIES,
  DRIVETRAINS,
  FUEL_TYPES,
  TRANSMISSIONS,
  capitalise,
} from "./fields";
import { MIN_YEAR, maxListingYear } from "./rules";
import { hasValidCheckDigit, isWellFormedVin, normalizeVin } from "~/services/vehicles/vin";
import { VIN_MESSAGES } from "~/services/vehicles/messages";
import { CONVERTED_CURRENCIES, MAX_RATE } from "./exchange-rates";
import { readTypedAmount } from "~/utils/money";

export const MISSING_INFORMATION = "Missing Information: Please fill in all required fields.";
export const REQUIRED_FIELDS = ["title", "make", "model", "year", "price", "condition", "city"];

const present = (value: unknown) =>
  value !== undefined && value !== null && !(typeof value === "string" && value.trim() === "");

const text = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : undefined));

const requiredText = (max: number, label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const digits = (value: unknown) =>
  typeof value === "string" ? value.replace(/[,\s$]/g, "") : value;

/** The most a listing may ask, in its own currency (docs/decisions/2801). */
export const MAX_LISTING_PRICE = 10_000_000;

/** A positive amount with at most two decimals, kept as a decimal string "12345.00". */
export const priceSchema = z.preprocess(
  digits,
  z
    .string({ error: "Price is required" })
    .min(1, "Price is required")
    .superRefine((value, ctx) => {
      const read = readTypedAmount(value);
      const message =
        "problem" in read
          ? read.problem === "decimals"
            ? "Use at most 2 decimals, like 18500.50"
            : "Enter a price like 18500 or 18500.50"
          : read.cents > MAX_LISTING_PRICE * 100
            ? `Price must be at most ${MAX_LISTING_PRICE.toLocaleString("en-US")}`
            : null;
      if (message) ctx.addIssue({ code: "custom", message, continue: false });
    })
    .refine((value) => Number(value) > 0, "Price must be greater than 0")
    .transform((value) => {
      const [whole, cents = ""] = value.split(".");
      return `${BigInt(whole).toString()}.${cents.padEnd(2, "0")}`;
    }),
);

const yearSchema = z.preprocess(
  digits,
  z
    .string({ error: "Year is required" })
    .min(1, "Year is required")
    .regex(/^\d{4}$/, { message: "Enter a 4-digit year", abort: true })
    .transform(Number)
    .refine((year) => year >= MIN_YEAR, `Year must be ${MIN_YEAR} or later`)
    .refine((year) => year <= maxListingYear(), {
      message: `Year must be ${maxListingYear()} or earlier`,
    }),
);

/** The most miles a listing may state (the column's own check). */
export const MAX_MILEAGE = 2_000_000;

const mileageSchema = z.preprocess(
  digits,
  z
    .string()
    .regex(/^\d+$/, { message: "Mileage must be a whole number of miles", abort: true })
    .refine(
      (miles) => miles.replace(/^0+(?=\d)/, "").length <= 7 && Number(miles) <= MAX_MILEAGE,
      `Mileage must be at most ${MAX_MILEAGE.toLocaleString("en-US")} miles`,
    )
    .transform(Number)
    .optional(),
);

/** Optional; spaces and dashes dropped, upper-cased; 17 characters with a right check digit. */
const vinSchema = z
  .string()
  .optional()
  .transform((value) => (value ? normalizeVin(value) : undefined))
  .refine((vin) => vin === undefined || isWellFormedVin(vin), {
    message: VIN_MESSAGES.malformed,
    abort: true,
  })
  .refine((vin) => vin === undefined || hasValidCheckDigit(vin), VIN_MESSAGES.checkDigit);

const choice = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, {
    error: (issue) =>
      issue.input === undefined ? `${capitalise(label)} is required` : `Choose a valid ${label}`,
  });

/** The Post Vehicle form and POST /api/vehicles: one schema for both. */
export const listingSchema = z
  .object({
    title: requiredText(120, "Title"),
    description: z
      .string()
      .trim()
      .max(5000, "Description must be at most 5000 characters")
      .default(""),
    make: requiredText(40, "Make"),
    model: requiredText(60, "Model"),
    year: yearSchema,
    mileage: mileageSchema,
    price: priceSchema,
    currency: choice(CURRENCIES, "currency").default("USD"),
    condition: choice(CONDITIONS, "condition"),
    fuelType: choice(FUEL_TYPES, "fuel type").optional(),
    transmission: choice(TRANSMISSIONS, "transmission").optional(),
    drivetrain: choice(DRIVETRAINS, "drivetrain").optional(),
    exteriorColor: text(40, "Exterior color"),
    interiorColor: text(40, "Interior color"),
    bodyType: choice(BODY_TYPES, "body type").optional(),
    country: choice(COUNTRIES, "country").default("US"),
    state: text(60, "State/Province"),
    city: requiredText(80, "City"),
    zipCode: text(12, "ZIP/Postal code"),
    vin: vinSchema,
  })
  .refine(
    // Runs even when fields failed, so a missing field also gives the form-level message.
    (value) => REQUIRED_FIELDS.every((key) => present((value as Record<string, unknown>)[key])),
    { message: MISSING_INFORMATION, path: [], when: () => true },
  );

export type ListingInput = z.output<typeof listingSchema>;

/** JSON callers send numbers and nulls; the form sends strings. Bring both to the form's shape. */
export function normaliseListingJson(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== "object" || Array.isArray(body)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === null || value === "") continue;
    out[key] = typeof value === "number" ? String(value) : value;
  }
  return out;
}

/** Why a filter value was left out; the page puts the filter's name in front (FILTER_LABELS). */
export const FILTER_PROBLEMS = {
  text: (max: number) => `use at most ${max} characters`,
  year: () => `enter a year between ${MIN_YEAR} and ${maxListingYear()}`,
  price: "enter an amount of 0 or more, like 15000 or 15000.50",
  priceTooLarge: `enter at most ${MAX_LISTING_PRICE.toLocaleString("en-US")}`,
  choice: "choose one of the listed options",
} as const;

const optionalFilterText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, FILTER_PROBLEMS.text(max))
    .optional()
    .transform((value) => (value ? value : undefined));

// Model years as the listings hold them (MIN_YEAR to next year), read at request time so the
// upper bound moves with the calendar.
const optionalYear = z.preprocess(
  (value) => (typeof value === "string" ? value.replace(/[,\s]/g, "") || undefined : value),
  z
    .string()
    .regex(/^\d{4}$/, { error: FILTER_PROBLEMS.year, abort: true })
    .transform(Number)
    .refine((year) => year >= MIN_YEAR && year <= maxListingYear(), {
      error: FILTER_PROBLEMS.year,
    })
    .optional(),
);

const optionalAmount = z.preprocess(
  (value) => (typeof value === "string" ? value.replace(/[,\s$]/g, "") || undefined : value),
  z
    .string()
    .regex(/^\d+(\.\d{1,2})?$/, { error: FILTER_PROBLEMS.price, abort: true })
    .refine((value) => {
      const read = readTypedAmount(value);
      return "cents" in read && read.cents <= MAX_LISTING_PRICE * 100;
    }, FILTER_PROBLEMS.priceTooLarge)
    .optional(),
);

const optionalChoice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.enum(values, FILTER_PROBLEMS.choice).optional(),
  );

/** The community query set of GET /api/vehicles and /community-vehicles. */
export const listingSearchSchema = z.object({
  search: optionalFilterText(100),
  make: optionalFilterText(40),
  model: optionalFilterText(60),
  yearMin: optionalYear,
  yearMax: optionalYear,
  priceMin: optionalAmount,
  priceMax: optionalAmount,
  /** The currency the price range is in; listings in others are converted (2806). */
  currency: optionalChoice(CURRENCIES),
  country: optionalChoice(COUNTRIES),
  state: optionalFilterText(60),
  city: optionalFilterText(80),
  condition: optionalChoice(CONDITIONS),
  bodyType: optionalChoice(BODY_TYPES),
});

export type ListingFilters = Partial<z.output<typeof listingSearchSchema>>;
export type FilterKey = keyof ListingFilters;
export const FILTER_KEYS = Object.keys(listingSearchSchema.shape) as FilterKey[];

/** Each filter as the filter form names it. */
export const FILTER_LABELS: Record<FilterKey, string> = {
  search: "Search",
  make: "Make",
  model: "Model",
  yearMin: "Year from",
  yearMax: "Year to",
  priceMin: "Price from",
  priceMax: "Price to",
  currency: "Prices in",
  country: "Country",
  state: "State/Province",
  city: "City",
  condition: "Condition",
  bodyType: "Body type",
};

/** A filter value the page could not use: the results leave it out and say so. */
export type IgnoredFilter = { key: FilterKey; value: string; problem: string };

/** "Year from: enter a year between 1900 and 2027 — ignored" */
export function ignoredFilterNotice({ key, problem }: IgnoredFilter) {
  return `${FILTER_LABELS[key]}: ${problem} — ignored`;
}

/** An admin's new rate. */
export const exchangeRateSchema = z.object({
  currency: z.enum(CONVERTED_CURRENCIES, { error: "Choose CAD or MXN" }),
  perUsd: z
    .string({ error: "Enter how many units one US dollar buys, like 1.3950" })
    .trim()
    .regex(/^\d+(\.\d+)?$/, {
      message: "Enter how many units one US dollar buys, like 1.3950",
      abort: true,
    })
    .regex(/^\d+(\.\d{1,6})?$/, { message: "Use at most 6 decimals", abort: true })
    .refine(
      (value) =>
        value.replace(/^0+(?=\d)/, "").split(".")[0].length <= 6 && Number(value) <= MAX_RATE,
      `A rate is at most ${MAX_RATE.toLocaleString("en-US")}`,
    )
    .refine((value) => Number(value) > 0, "A rate is more than 0"),
  asOf: z
    .string({ error: "Enter the date the rate is as of" })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "Enter a date like 2026-11-20", abort: true })
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
    }, "Enter a real date, like 2026-11-20")
    .refine((value) => value >= "2000-01-01", "Enter a date in 2000 or later"),
});
