// What the dashboard reads besides buying power (docs/decisions/3306): whether this is the
// person's first visit, their provider application, and their open invoices. One round trip.
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { providerStatus } from "~/services/affiliates/status";
import type { OpenInvoices } from "./next-steps";

export async function dashboardFacts(userId: string) {
  const [row] = await sequelize.query<{
    first_visit: boolean;
    has_bid: boolean;
    application: string | null;
    open_count: string;
    first_id: string | null;
    next_due_at: Date | null;
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
            min(p.due_at) AS next_due_at
       FROM (SELECT 1) AS one
       LEFT JOIN purchases p ON p.user_id = :userId AND p.status = 'pending'`,
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  const invoices: OpenInvoices = {
    count: Number(row.open_count),
    firstId: row.first_id,
    nextDueAt: row.next_due_at ? new Date(row.next_due_at).toISOString() : null,
  };
  return {
    firstVisit: row.first_visit,
    /** Has bid before (or won): greeted without "before your first bid" (record 3551). */
    hasBid: row.has_bid,
    provider: providerStatus(row.application ? { status: row.application } : null),
    invoices,
  };
}
