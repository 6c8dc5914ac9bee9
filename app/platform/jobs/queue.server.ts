// Adding background jobs (docs/decisions/3560, 3561): a row in graphile-worker's queue, written by
// the caller's own transaction, so a write that rolls back queues nothing and a worker is woken
// (LISTEN/NOTIFY) the moment it commits.
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { currentRequestId } from "./context.server";

/** Every kind of job a worker runs (app/platform/jobs/tasks.server.ts has their handlers). */
export type JobKind =
  | "close_lot"
  | "send_mail"
  | "retry_refunds"
  | "fetch_lot_pictures"
  | "notices"
  | "sweep_closes"
  | "prunes"
  | "reminders"
  | "demo_auctions";

export type JobOptions = {
  transaction?: Transaction;
  /** When it may run first (default: now). */
  runAt?: Date;
  /** One pending job per key: adding it again replaces (or keeps, below) the one waiting. */
  jobKey?: string;
  jobKeyMode?: "replace" | "preserve_run_at" | "unsafe_dedupe";
  maxAttempts?: number;
  /** Lower runs first; close jobs are -10, most are 0. */
  priority?: number;
};

/**
 * Queues one job in `transaction` (or on its own). The payload carries the id of the request
 * that caused it, when there is one, for the job's log lines.
 */
export async function addJob(
  kind: JobKind,
  payload: Record<string, unknown>,
  options: JobOptions = {},
): Promise<string> {
  const requestId = currentRequestId();
  const [row] = await sequelize.query<{ id: string }>(
    `SELECT (graphile_worker.add_job(:kind, CAST(:payload AS json), run_at => :runAt,
              max_attempts => :maxAttempts, job_key => :jobKey, priority => :priority,
              job_key_mode => :jobKeyMode)).id::text AS id`,
    {
      replacements: {
        kind,
        payload: JSON.stringify(requestId ? { ...payload, requestId } : payload),
        runAt: options.runAt ?? null,
        maxAttempts: options.maxAttempts ?? 25,
        jobKey: options.jobKey ?? null,
        priority: options.priority ?? 0,
        jobKeyMode: options.jobKeyMode ?? "replace",
      },
      type: QueryTypes.SELECT,
      transaction: options.transaction,
    },
  );
  return row.id;
}
