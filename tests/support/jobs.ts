// The job queue in tests: run what is due now (as the worker process would), make waiting jobs
// due, and read the queue.
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { runDueJobs } from "~/platform/jobs/runner.server";
import type { TaskOptions } from "~/platform/jobs/tasks.server";

/** Runs every job due now, one after another, until none is left. */
export function runJobs(options: TaskOptions = {}) {
  return runDueJobs({ ...options, connectionString: process.env.DATABASE_URL });
}

export type QueuedJob = {
  id: string;
  task_identifier: string;
  payload: Record<string, unknown>;
  run_at: Date;
  attempts: number;
  max_attempts: number;
  priority: number;
  last_error: string | null;
  key: string | null;
  locked_by: string | null;
};

/** The jobs in the queue (of one kind), oldest first. */
export function queuedJobs(kind?: string) {
  return sequelize.query<QueuedJob>(
    `SELECT j.id::text, t.identifier AS task_identifier, j.payload, j.run_at, j.attempts,
            j.max_attempts, j.priority, j.last_error, j.key, j.locked_by
       FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE :kind::text IS NULL OR t.identifier = :kind ORDER BY j.id`,
    { replacements: { kind: kind ?? null }, type: QueryTypes.SELECT },
  );
}

/** Makes the waiting jobs (of one kind) due now, as if their retry wait had passed. */
export async function makeJobsDue(kind?: string) {
  await sequelize.query(
    `UPDATE graphile_worker._private_jobs j SET run_at = now() - interval '1 second'
       FROM graphile_worker._private_tasks t
      WHERE t.id = j.task_id AND j.locked_at IS NULL AND j.attempts < j.max_attempts
        AND (:kind::text IS NULL OR t.identifier = :kind)`,
    { replacements: { kind: kind ?? null } },
  );
}

/** Empties the queue. */
export async function clearJobs() {
  await sequelize.query("DELETE FROM graphile_worker._private_jobs");
}

/**
 * Runs the refunds' retry jobs now, as if their wait had passed (docs/decisions/3564), and counts
 * what became of the refunds those jobs were about (each job one refund).
 */
export async function runRefundRetries() {
  const waiting = (await queuedJobs("retry_refund")).filter(
    (job) => job.locked_by === null && job.attempts < job.max_attempts,
  );
  const ids = waiting.map((job) => String(job.payload.refundId));
  await makeJobsDue("retry_refund");
  await runJobs();
  const rows = ids.length
    ? await sequelize.query<{ status: "pending" | "completed" | "failed" }>(
        "SELECT status FROM payment_refunds WHERE id IN (:ids)",
        { replacements: { ids }, type: QueryTypes.SELECT },
      )
    : [];
  const outcomes = { completed: 0, pending: 0, failed: 0 };
  for (const row of rows) outcomes[row.status] += 1;
  return outcomes;
}
