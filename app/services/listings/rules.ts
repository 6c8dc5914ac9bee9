// The community listing rules, importable by the browser and the server: how many listings a
// user may post (docs/decisions/0502), how many photos a listing holds, which model years are
// accepted. app/services/listings/allowance.server.ts only counts rows and applies allowanceFrom.

/** A non-member posts this many listings in all; deleting one does not give it back. */
export const FREE_LISTINGS = 3;
export const MAX_PHOTOS = 10;
/** Each photo as uploaded, before it is re-encoded. */
export const MAX_PHOTO_MB = 10;
export const MAX_PHOTO_BYTES = MAX_PHOTO_MB * 1024 * 1024;
export const MIN_YEAR = 1900;

/** Model years run ahead of the calendar: next year's models are on sale (docs/decisions/0502). */
export function maxListingYear(now = new Date()) {
  return now.getUTCFullYear() + 1;
}

export type ListingAllowance = {
  hasMembership: boolean;
  /** A membership without a vehicle limit. */
  unlimited: boolean;
  /** Free tier: listings in all; member: active listings. null when unlimited. */
  limit: number | null;
  activeListings: number;
  totalListings: number;
  remainingFreeListings: number;
  canPost: boolean;
};

/**
 * What the user may still post. Non-members get FREE_LISTINGS in all (deleted ones count); a
 * membership's plan caps ACTIVE listings (vehicleLimit null: unlimited). An expired membership
 * is no membership: the free tier applies again.
 */
export function allowanceFrom(
  counts: { activeListings: number; totalListings: number },
  membership: { vehicleLimit: number | null } | null,
): ListingAllowance {
  const { activeListings, totalListings } = counts;
  const remainingFreeListings = Math.max(0, FREE_LISTINGS - totalListings);
  if (membership) {
    const unlimited = membership.vehicleLimit === null;
    return {
      hasMembership: true,
      unlimited,
      limit: membership.vehicleLimit,
      activeListings,
      totalListings,
      remainingFreeListings,
      canPost: unlimited || activeListings < membership.vehicleLimit!,
    };
  }
  return {
    hasMembership: false,
    unlimited: false,
    limit: FREE_LISTINGS,
    activeListings,
    totalListings,
    remainingFreeListings,
    canPost: remainingFreeListings > 0,
  };
}

/** How many more listings the user may post now; Infinity with an unlimited membership. */
export function listingsLeft(allowance: ListingAllowance) {
  if (allowance.unlimited) return Infinity;
  return allowance.hasMembership
    ? Math.max(0, allowance.limit! - allowance.activeListings)
    : allowance.remainingFreeListings;
}
