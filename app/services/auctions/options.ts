// The auction list's filter choices, kept free of zod so the list page's bundle does not pull it in.
export const AUCTION_HOUSE_OPTIONS = [
  { value: "copart", label: "Copart" },
  { value: "iaai", label: "IAAI" },
] as const;

/** A filter choice from the data: its value, how it reads, and how many open lots have it. */
export type FacetOption = { value: string; label: string; count: number };

/**
 * The damage filter's groups: the houses' own primary damage names ("FRONT END", "REAR END") are
 * the choices, listed under the kind of damage they are (see record 3310).
 */
export const DAMAGE_GROUP_LABELS: Record<string, string> = {
  collision: "Collision",
  flood: "Flood and water",
  hail: "Hail",
  theft: "Theft and stripped",
  fire: "Fire and burn",
  mechanical: "Mechanical and electrical",
  vandalism: "Vandalism",
  other: "Other",
};

/** One group of the damage filter: its heading and the houses' damage names under it. */
export type DamageGroup = { value: string; label: string; options: FacetOption[] };

/** The damage chosen, kept on offer when no open lot has it (as optionsWithChosen does). */
export function damageGroupsWithChosen(groups: DamageGroup[], chosen: string | undefined) {
  if (!chosen || groups.some((group) => group.options.some((o) => o.value === chosen)))
    return groups;
  return [
    ...groups,
    { value: "chosen", label: "Chosen", options: [{ value: chosen, label: chosen, count: 0 }] },
  ];
}

/** The list's orders, kept in the URL as `sort` (see record 3311). */
export const SORT_OPTIONS = [
  { value: "ending", label: "Ending soonest" },
  { value: "newest", label: "Newest listed" },
  { value: "price_asc", label: "Price: low to high" },
  { value: "price_desc", label: "Price: high to low" },
  { value: "year_desc", label: "Year: newest first" },
  { value: "year_asc", label: "Year: oldest first" },
] as const;
export const SORT_VALUES = [
  "ending",
  "newest",
  "price_asc",
  "price_desc",
  "year_desc",
  "year_asc",
] as const;
export type AuctionSort = (typeof SORT_VALUES)[number];

/**
 * The choices to offer: those in the data, plus the one chosen when no open lot has it (a shared
 * link, a make that just sold out), so the form still shows what is applied.
 */
export function optionsWithChosen(options: FacetOption[], chosen: string | undefined) {
  if (!chosen || options.some((option) => option.value === chosen)) return options;
  return [...options, { value: chosen, label: chosen.replace(/_/g, " "), count: 0 }];
}

/** "Toyota (1,204)" */
export function facetLabel(option: FacetOption) {
  return `${option.label} (${option.count.toLocaleString("en-US")})`;
}

export const TITLE_OPTIONS = [
  { value: "clean", label: "Clean" },
  { value: "salvage", label: "Salvage" },
  { value: "rebuilt", label: "Rebuilt" },
  { value: "certificate_of_destruction", label: "Certificate of destruction" },
  { value: "parts_only", label: "Parts only" },
  { value: "other", label: "Other" },
] as const;

/** "Certificate of destruction" for certificate_of_destruction. */
export function titleLabel(value: string) {
  return TITLE_OPTIONS.find((option) => option.value === value)?.label ?? value.replace(/_/g, " ");
}

// The values the lots table accepts (its model's enums); the list page offers those the open lots
// carry (filter-options.server.ts).
export const AUCTION_HOUSES = ["copart", "iaai"] as const;
export const DAMAGE_TYPES = [
  "collision",
  "flood",
  "hail",
  "theft",
  "fire",
  "mechanical",
  "vandalism",
  "other",
] as const;
export const TITLE_TYPES = [
  "clean",
  "salvage",
  "rebuilt",
  "certificate_of_destruction",
  "parts_only",
  "other",
] as const;
