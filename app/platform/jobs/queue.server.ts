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
  | "retry_refund"
  | "sweep_refunds"
  | "fetch_lot_pictures"
  | "notices"
  | "outbid_mail"
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

/**
 * Queues many jobs of one kind in one statement, in `transaction` (or on its own): each item its
 * payload and key, the options shared. Returns how many were added.
 */
export async function addJobs(
  kind: JobKind,
  items: Array<{ payload: Record<string, unknown>; jobKey?: string }>,
  options: Omit<JobOptions, "jobKey"> = {},
): Promise<number> {
  if (items.length === 0) return 0;
  const requestId = currentRequestId();
  const rows = await sequelize.query<{ id: string }>(
    `SELECT (graphile_worker.add_job(:kind, i.payload, run_at => :runAt,
              max_attempts => :maxAttempts, job_key => i.job_key, priority => :priority,
              job_key_mode => :jobKeyMode)).id::text AS id
       FROM json_to_recordset(CAST(:items AS json)) AS i(payload json, job_key text)`,
    {
      replacements: {
        kind,
        items: JSON.stringify(
          items.map((item) => ({
            payload: requestId ? { ...item.payload, requestId } : item.payload,
            job_key: item.jobKey ?? null,
          })),
        ),
        runAt: options.runAt ?? null,
        maxAttempts: options.maxAttempts ?? 25,
        priority: options.priority ?? 0,
        jobKeyMode: options.jobKeyMode ?? "replace",
      },
      type: QueryTypes.SELECT,
      transaction: options.transaction,
    },
  );
  return rows.length;
}
