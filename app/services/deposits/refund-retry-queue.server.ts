// Each recorded refund's retry job (docs/decisions/3564): queued in the transaction that records
// the refund, so a refund is never left pending without one, and a write that rolls back queues
// nothing. The first try is sent by the caller right after the commit; the job runs
// REFUND_RETRY.firstAfterMs later and does nothing when that try settled it.
import type { Transaction } from "sequelize";
import { now } from "~/platform/clock.server";
import { addJob } from "~/platform/jobs/queue.server";

export const REFUND_RETRY = {
  /** When the job first runs, after the try the request itself makes. */
  firstAfterMs: 5 * 60_000,
  /**
   * Tries of the job. The queue waits e^n seconds after try n (3 s, 7 s, 20 s, 55 s, 2.5 min,
   * 7 min, 18 min): the last comes about half an hour after the first, so a refund is settled or
   * in a person's hands within the hour record 3502 allows. Then a person takes over (record
   * 3564).
   */
  maxAttempts: 8,
};

/** The job key of a refund's retry: one pending per refund. */
export const refundJobKey = (refundId: string) => `retry_refund:${refundId}`;

/** Queues the retry of refund `refundId` in `transaction` (the one that recorded it). */
export async function queueRefundRetry(refundId: string, transaction: Transaction) {
  await addJob(
    "retry_refund",
    { refundId: String(refundId) },
    {
      transaction,
      runAt: new Date(now().getTime() + REFUND_RETRY.firstAfterMs),
      jobKey: refundJobKey(String(refundId)),
      jobKeyMode: "preserve_run_at",
      maxAttempts: REFUND_RETRY.maxAttempts,
      // money owed back goes before a burst of alerts
      priority: -5,
    },
  );
}
