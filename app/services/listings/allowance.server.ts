import { QueryTypes, type Transaction } from "sequelize";
import { sequelize, sql } from "~/models/db.server";
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
  if (!transaction) {
    // a screen's figure (the community list shows it on every visit): the counts and the
    // membership that counts now in one statement (docs/decisions/2904), the same rule as below
    const [row] = await sql<{
      active: number;
      total: number;
      limited: boolean | null;
      cap: number | null;
    }>(
      `SELECT (SELECT count(*)::int FROM listings WHERE user_id = $1 AND status = 'active') AS active,
              (SELECT count(*)::int FROM listings WHERE user_id = $1) AS total,
              m.plan_id IS NOT NULL AS limited, m.vehicle_limit AS cap
         FROM (SELECT 1) one
         LEFT JOIN LATERAL (
           SELECT m.plan_id, p.vehicle_limit
             FROM memberships m JOIN membership_plans p ON p.id = m.plan_id
            WHERE m.user_id = $1 AND m.status IN ('trialing', 'active')
              AND m.current_period_end > $2
            LIMIT 1) m ON true`,
      [userId, new Date()],
      { prepared: true },
    );
    return allowanceFrom(
      { activeListings: row.active, totalListings: row.total },
      row.limited ? { vehicleLimit: row.cap } : null,
    );
  }
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
