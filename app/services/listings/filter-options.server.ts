// The community filters' choices from the active listings, with how many each has: makes (any
// spelling's case counted as one), conditions, body types and countries. One GROUPING SETS scan,
// one shared copy per process refreshed behind the callers (docs/decisions/2805).
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { sharedAnswer } from "~/platform/shared-answer.server";
import { FILTER_COUNTS_FRESH_MS } from "~/services/auctions/filter-options.server";
import type { FacetOption } from "~/services/auctions/options";
import {
  BODY_TYPE_LABELS,
  CONDITIONS,
  COUNTRY_NAMES,
  capitalise,
  type BodyType,
  type Condition,
  type Country,
} from "./fields";

export type ListingFilterOptions = {
  makes: FacetOption[];
  conditions: FacetOption[];
  bodyTypes: FacetOption[];
  countries: FacetOption[];
};

/** The makes offered: the most listed ones (free text can hold any number of spellings). */
const MAX_MAKES = 80;

type Row = {
  facet: "make" | "condition" | "body_type" | "country";
  value: string | null;
  label: string | null;
  count: number;
};

export async function countListingFilterOptions(): Promise<ListingFilterOptions> {
  const rows = await sequelize.query<Row>(
    `SELECT CASE
              WHEN GROUPING(lower(make)) = 0 THEN 'make'
              WHEN GROUPING(condition) = 0 THEN 'condition'
              WHEN GROUPING(body_type) = 0 THEN 'body_type'
              ELSE 'country' END AS facet,
            coalesce(lower(make), condition::text, body_type::text, country::text) AS value,
            min(make) AS label,
            count(*)::int AS count
       FROM listings WHERE status = 'active'
      GROUP BY GROUPING SETS ((lower(make)), (condition), (body_type), (country))`,
    { type: QueryTypes.SELECT },
  );
  const options: ListingFilterOptions = { makes: [], conditions: [], bodyTypes: [], countries: [] };
  for (const row of rows) {
    if (row.value === null) continue;
    if (row.facet === "make")
      options.makes.push({
        value: row.label ?? row.value,
        label: row.label ?? row.value,
        count: row.count,
      });
    else if (row.facet === "condition")
      options.conditions.push({ value: row.value, label: capitalise(row.value), count: row.count });
    else if (row.facet === "body_type")
      options.bodyTypes.push({
        value: row.value,
        label: BODY_TYPE_LABELS[row.value as BodyType] ?? capitalise(row.value),
        count: row.count,
      });
    else
      options.countries.push({
        value: row.value,
        label: COUNTRY_NAMES[row.value as Country] ?? row.value,
        count: row.count,
      });
  }
  options.makes = options.makes.sort((a, b) => b.count - a.count).slice(0, MAX_MAKES);
  for (const list of [options.makes, options.bodyTypes, options.countries])
    list.sort((a, b) => a.label.localeCompare(b.label, "en"));
  // Conditions read best from best to worst.
  options.conditions.sort(
    (a, b) => CONDITIONS.indexOf(a.value as Condition) - CONDITIONS.indexOf(b.value as Condition),
  );
  return options;
}

const cached = sharedAnswer({
  name: "listing filter counts",
  freshMs: FILTER_COUNTS_FRESH_MS,
  load: countListingFilterOptions,
});

/** The community filters' choices with their counts (one shared copy per process). */
export function listingFilterOptions() {
  return cached.get();
}

/** For tests: the next read counts again. */
export function forgetListingFilterOptions() {
  cached.forget();
}
