import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { FREE_LISTINGS } from "~/modules/listings/fields";
import { activeMembership } from "~/modules/memberships/memberships.server";

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

type MembershipLimit = { vehicleLimit: number | null };

/**
 * The user's active membership and its plan's vehicle limit (null = unlimited), or null without
 * one. Expired memberships do not count: the free tier applies again (DOMAIN.md, Memberships).
 */
async function activeMembershipLimit(
  userId: string,
  transaction?: Transaction,
): Promise<MembershipLimit | null> {
  return activeMembership(userId, transaction);
}

/**
 * What the user may still post (DOMAIN.md, Community listings). Non-members get FREE_LISTINGS in
 * all: deleting a listing does not give it back. A plan's limit caps ACTIVE listings. Callers that
 * then post must hold the lock on the user row (see createListing) and pass its transaction.
 */
export async function listingAllowance(
  userId: string,
  transaction?: Transaction,
): Promise<ListingAllowance> {
  const [counts] = await sequelize.query<{ active: string; total: string }>(
    `SELECT count(*) FILTER (WHERE status = 'active') AS active, count(*) AS total
       FROM listings WHERE user_id = $1`,
    { bind: [userId], type: QueryTypes.SELECT, transaction },
  );
  const activeListings = Number(counts.active);
  const totalListings = Number(counts.total);
  const remainingFreeListings = Math.max(0, FREE_LISTINGS - totalListings);
  const membership = await activeMembershipLimit(userId, transaction);
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
