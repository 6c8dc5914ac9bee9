// The auction list's filter choices, kept free of zod so the list page's bundle does not pull it in.
export const AUCTION_HOUSE_OPTIONS = [
  { value: "copart", label: "Copart" },
  { value: "iaai", label: "IAAI" },
] as const;

/** A filter choice from the data: its value, how it reads, and how many open lots have it. */
export type FacetOption = { value: string; label: string; count: number };

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
