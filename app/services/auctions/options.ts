// The auction list's filter choices, kept free of zod so the list page's bundle does not pull it in.
export const AUCTION_HOUSE_OPTIONS = [
  { value: "copart", label: "Copart" },
  { value: "iaai", label: "IAAI" },
] as const;
export const MAKE_OPTIONS = ["Ford", "Chevrolet", "Toyota", "Honda"] as const;
export const DAMAGE_OPTIONS = ["theft", "collision", "flood", "hail"] as const;
export const LOCATION_OPTIONS = ["TX", "CA", "FL", "NY"] as const;
export const TITLE_OPTIONS = [
  { value: "clean", label: "Clean" },
  { value: "salvage", label: "Salvage" },
  { value: "rebuilt", label: "Rebuilt" },
  { value: "certificate_of_destruction", label: "Certificate of destruction" },
  { value: "parts_only", label: "Parts only" },
  { value: "other", label: "Other" },
] as const;

// The values the lots table accepts (its model's enums); the filter options above are the subset
// the list page offers.
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
