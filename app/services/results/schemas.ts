import * as z from "zod";
import { DAMAGE_TYPES, TITLE_OPTIONS } from "~/services/auctions/options";

export const FIRST_YEAR = 1981;

/**
 * At most this many sold lots are listed (the summary counts them all). Here, not in the server
 * module, because the page says it too: a server module's values are empty in the browser, and
 * the page then hydrated differently from its HTML.
 */
export const RESULTS_LIMIT = 50;

const text = (label: string) =>
  z
    .string()
    .trim()
    .max(60, `${label}: use at most 60 characters`)
    .optional()
    .transform((value) => (value ? value : undefined));
const year = (label: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(
      z
        .string()
        .regex(/^\d{4}$/, `${label}: enter a 4-digit year`)
        .transform(Number)
        .refine((y) => y >= FIRST_YEAR && y <= 2100, `${label}: enter a year from ${FIRST_YEAR}`)
        .optional(),
    );

/** The sold-results search (GET /auctions/results), every field optional. */
export const resultsQuerySchema = z
  .object({
    make: text("Make"),
    model: text("Model"),
    yearFrom: year("Year from"),
    yearTo: year("Year to"),
    damage: z.enum(DAMAGE_TYPES, { error: "Damage: choose one of the listed options" }).optional(),
    title: z
      .enum(TITLE_OPTIONS.map((o) => o.value) as [string, ...string[]], {
        error: "Title: choose one of the listed options",
      })
      .optional(),
  })
  .refine((q) => !q.yearFrom || !q.yearTo || q.yearFrom <= q.yearTo, {
    message: "Year from must not be after Year to",
    path: ["yearTo"],
  });

export type ResultsQuery = z.output<typeof resultsQuerySchema>;

/** Reads the search from a URL's query; empty values are no filter. */
export function parseResultsQuery(params: URLSearchParams) {
  const raw: Record<string, string> = {};
  for (const key of ["make", "model", "yearFrom", "yearTo", "damage", "title"]) {
    const value = params.get(key);
    if (value !== null && value.trim() !== "") raw[key] = value;
  }
  return resultsQuerySchema.safeParse(raw);
}
