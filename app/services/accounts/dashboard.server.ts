// What the dashboard reads besides buying power (docs/decisions/3306): whether this is the
// person's first visit, their provider application, their open invoices, whether they have
// started buying and a provider's jobs and earnings (docs/decisions/3533). One round trip.
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { providerStatus } from "~/services/affiliates/status";
import type { OpenInvoices, ProviderJobs } from "./next-steps";

export async function dashboardFacts(userId: string) {
  const [row] = await sequelize.query<{
    first_visit: boolean;
    has_bid: boolean;
    application: string | null;
    open_count: string;
    first_id: string | null;
    next_due_at: Date | null;
    buyer_activity: boolean;
    active_jobs: string;
    completed_jobs: string;
    earned_cents: string;
  }>(
    `WITH welcomed AS (
       UPDATE users SET welcomed_at = now() WHERE id = :userId AND welcomed_at IS NULL
       RETURNING id
     )
     SELECT EXISTS (SELECT 1 FROM welcomed) AS first_visit,
            EXISTS (SELECT 1 FROM bids WHERE user_id = :userId) AS has_bid,
            (SELECT status FROM affiliate_applications WHERE user_id = :userId) AS application,
            count(p.id)::text AS open_count,
            (array_agg(p.id::text ORDER BY p.due_at NULLS LAST, p.id))[1] AS first_id,
            min(p.due_at) AS next_due_at,
            (EXISTS (SELECT 1 FROM deposit_entries WHERE user_id = :userId)
              OR EXISTS (SELECT 1 FROM bids WHERE user_id = :userId)
              OR EXISTS (SELECT 1 FROM purchases WHERE user_id = :userId)
              OR EXISTS (SELECT 1 FROM kyc_documents WHERE user_id = :userId)) AS buyer_activity,
            (SELECT count(*) FROM service_orders
              WHERE claimed_by = :userId AND status IN ('claimed', 'in_progress'))::text
              AS active_jobs,
            (SELECT count(*) FROM provider_earnings WHERE provider_id = :userId)::text
              AS completed_jobs,
            (SELECT coalesce(sum(net), 0) * 100 FROM provider_earnings
              WHERE provider_id = :userId)::bigint::text AS earned_cents
       FROM (SELECT 1) AS one
       LEFT JOIN purchases p ON p.user_id = :userId AND p.status = 'pending'`,
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  const invoices: OpenInvoices = {
    count: Number(row.open_count),
    firstId: row.first_id,
    nextDueAt: row.next_due_at ? new Date(row.next_due_at).toISOString() : null,
  };
  const jobs: ProviderJobs = {
    active: Number(row.active_jobs),
    completed: Number(row.completed_jobs),
    earnedCents: Number(row.earned_cents),
  };
  return {
    firstVisit: row.first_visit,
    /** Has bid before (or won): greeted without "before your first bid" (record 3551). */
    hasBid: row.has_bid,
    provider: providerStatus(row.application ? { status: row.application } : null),
    invoices,
    buyerActivity: row.buyer_activity,
    jobs,
  };
}
