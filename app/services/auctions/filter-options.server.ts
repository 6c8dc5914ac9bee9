// The auction list's filter choices, from the open lots themselves, each with how many lots it
// has: every make, state, damage and title type a lot carries, never a fixed short list. One
// GROUPING SETS scan counts all four; one copy per process serves every page, shared while it
// loads and refreshed behind the callers every few minutes (docs/decisions/2805).
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { sharedAnswer } from "~/platform/shared-answer.server";
import type { DamageGroup, FacetOption } from "~/services/auctions/options";
import { DAMAGE_GROUP_LABELS, TITLE_OPTIONS } from "~/services/auctions/options";

export type AuctionFilterOptions = {
  makes: FacetOption[];
  states: FacetOption[];
  damageTypes: FacetOption[];
  titleTypes: FacetOption[];
  /** The houses' primary damage names, grouped by kind: what the damage filter offers. */
  damages: DamageGroup[];
};

/**
 * How long one copy of the counts is served before a refresh runs behind the callers: counting
 * 300,000 open lots takes 0.25 to 1 s on two busy cores, and a choice's count a few minutes old
 * misleads nobody.
 */
export const FILTER_COUNTS_FRESH_MS = 5 * 60_000;

type FacetRow = {
  make: string | null;
  location_state: string | null;
  damage_type: string | null;
  title_type: string | null;
  primary_damage: string | null;
  /** 1 on the rows that count damage types alone, 0 on those per primary damage */
  by_type: number;
  count: number;
};

const TITLE_LABELS: Record<string, string> = Object.fromEntries(
  TITLE_OPTIONS.map((option) => [option.value, option.label]),
);

const capitalise = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

function byLabel(a: { label: string }, b: { label: string }) {
  return a.label.localeCompare(b.label, "en");
}

/** The counts, straight from the database (the cached copy is what pages read). */
export async function countAuctionFilterOptions(): Promise<AuctionFilterOptions> {
  const rows = await sequelize.query<FacetRow>(
    `SELECT make, location_state, damage_type, title_type, primary_damage,
            GROUPING(primary_damage)::int AS by_type, count(*)::int AS count
       FROM lots WHERE status = 'active'
      GROUP BY GROUPING SETS ((make), (location_state), (damage_type), (title_type),
                             (damage_type, primary_damage))`,
    { type: QueryTypes.SELECT },
  );
  const options: AuctionFilterOptions = {
    makes: [],
    states: [],
    damageTypes: [],
    titleTypes: [],
    damages: [],
  };
  const groups = new Map<string, DamageGroup>();
  for (const row of rows) {
    if (row.damage_type !== null && row.by_type === 0) {
      // a lot the feed gave no primary damage has nothing to choose by under this filter
      if (row.primary_damage === null || row.primary_damage.trim() === "") continue;
      let group = groups.get(row.damage_type);
      if (!group) {
        group = {
          value: row.damage_type,
          label: DAMAGE_GROUP_LABELS[row.damage_type] ?? capitalise(row.damage_type),
          options: [],
        };
        groups.set(row.damage_type, group);
      }
      const name = row.primary_damage.trim().toUpperCase();
      const same = group.options.find((option) => option.value === name);
      if (same) same.count += row.count;
      else group.options.push({ value: name, label: name, count: row.count });
      continue;
    }
    if (row.make !== null)
      options.makes.push({ value: row.make, label: row.make, count: row.count });
    else if (row.location_state !== null)
      options.states.push({
        value: row.location_state,
        label: row.location_state,
        count: row.count,
      });
    else if (row.damage_type !== null)
      options.damageTypes.push({
        value: row.damage_type,
        label: capitalise(row.damage_type),
        count: row.count,
      });
    else if (row.title_type !== null)
      options.titleTypes.push({
        value: row.title_type,
        label: TITLE_LABELS[row.title_type] ?? capitalise(row.title_type.replace(/_/g, " ")),
        count: row.count,
      });
  }
  for (const list of [options.makes, options.states, options.damageTypes, options.titleTypes])
    list.sort(byLabel);
  options.damages = [...groups.values()].sort(byLabel);
  for (const group of options.damages) group.options.sort(byLabel);
  return options;
}

const cached = sharedAnswer({
  name: "auction filter counts",
  freshMs: FILTER_COUNTS_FRESH_MS,
  load: countAuctionFilterOptions,
});

/** The list page's filter choices with their counts (one shared copy per process). */
export function auctionFilterOptions() {
  return cached.get();
}

/** For tests: the next read counts again. */
export function forgetAuctionFilterOptions() {
  cached.forget();
}
