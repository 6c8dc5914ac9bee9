import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { allowanceFrom, type ListingAllowance } from "~/services/listings/rules";
import { activeMembership } from "~/services/memberships/memberships.server";

export type { ListingAllowance } from "~/services/listings/rules";

/**
 * What the user may still post: their listings counted, their membership that counts now, and
 * the rule in allowanceFrom (./rules). Callers that then post must hold the lock on the user row
 * (see createListing) and pass its transaction.
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
  const membership = await activeMembership(userId, transaction);
  return allowanceFrom(
    { activeListings: Number(counts.active), totalListings: Number(counts.total) },
    membership,
  );
}
