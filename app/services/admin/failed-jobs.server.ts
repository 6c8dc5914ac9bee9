// Background jobs that failed (docs/decisions/3561): the admin page lists each with its kind, its
// error, its tries, its next run and what it is about; an admin sends one to run again now (its
// tries counted afresh) or discards it. Each is audited.
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { UserError } from "~/utils/user-error";
import { recordAdminAction } from "./audit.server";

export type FailedJob = {
  id: string;
  kind: string;
  error: string;
  attempts: number;
  maxAttempts: number;
  /** When the queue tries it again; null once it has used up its tries. */
  nextRunAt: string | null;
  /** What it is about: a lot, an e-mail, or nothing (a schedule's run). */
  about: { label: string; href: string | null } | null;
};

type Row = {
  id: string;
  kind: string;
  last_error: string;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  payload: Record<string, unknown> | null;
};

function aboutOf(kind: string, payload: Record<string, unknown> | null): FailedJob["about"] {
  const id =
    typeof payload?.lotId === "string" ||
    typeof payload?.id === "string" ||
    typeof payload?.refundId === "string";
  if (!payload || !id) return null;
  if (kind === "close_lot")
    return { label: `Lot ${payload.lotId}`, href: `/auctions/${String(payload.lotId)}` };
  if (kind === "send_mail") return { label: `E-mail ${String(payload.id)} (outbox)`, href: null };
  if (kind === "fetch_lot_pictures" && typeof payload.lotId === "string")
    return { label: `Pictures of lot ${payload.lotId}`, href: `/auctions/${payload.lotId}` };
  if (kind === "retry_refund" && typeof payload.refundId === "string")
    return { label: `Refund ${payload.refundId}`, href: null };
  return null;
}

/** Jobs with an error: those still retrying and those that used up their tries, newest first. */
export async function listFailedJobs(limit = 200): Promise<FailedJob[]> {
  const rows = await sequelize.query<Row>(
    `SELECT j.id::text AS id, t.identifier AS kind, j.last_error, j.attempts, j.max_attempts,
            j.run_at, j.payload
       FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE j.last_error IS NOT NULL AND j.locked_at IS NULL
      ORDER BY j.updated_at DESC, j.id DESC LIMIT :limit`,
    { replacements: { limit }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    error: row.last_error.slice(0, 500),
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    nextRunAt: row.attempts >= row.max_attempts ? null : new Date(row.run_at).toISOString(),
    about: aboutOf(row.kind, row.payload),
  }));
}

export class FailedJobError extends UserError {}

/** Runs a failed job again now, with its tries counted afresh. */
export async function retryFailedJob(admin: Pick<User, "id" | "email">, jobId: string) {
  return sequelize.transaction(async (transaction) => {
    const [job] = await sequelize.query<{ id: string; kind: string; attempts: number }>(
      `SELECT j.id::text AS id, t.identifier AS kind, j.attempts
         FROM graphile_worker._private_jobs j
         JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE j.id = :jobId AND j.last_error IS NOT NULL AND j.locked_at IS NULL
        FOR UPDATE OF j`,
      { replacements: { jobId }, type: QueryTypes.SELECT, transaction },
    );
    if (!job)
      throw new FailedJobError("That job is no longer waiting: it ran or was discarded.", {
        status: 409,
      });
    await sequelize.query(
      `UPDATE graphile_worker._private_jobs SET run_at = now(), attempts = 0, updated_at = now()
        WHERE id = :jobId`,
      { replacements: { jobId }, transaction },
    );
    // wake a worker now, as adding a job does
    await sequelize.query("SELECT pg_notify($1, '')", { bind: ["jobs:insert"], transaction });
    await recordAdminAction(
      admin,
      "job.retry",
      { type: "job", id: job.id },
      { before: { kind: job.kind, attempts: job.attempts } },
      transaction,
    );
  });
}

/** Drops a failed job for good. */
export async function discardFailedJob(admin: Pick<User, "id" | "email">, jobId: string) {
  return sequelize.transaction(async (transaction) => {
    const [job] = await sequelize.query<{ id: string; kind: string; last_error: string }>(
      `DELETE FROM graphile_worker._private_jobs j USING graphile_worker._private_tasks t
        WHERE t.id = j.task_id AND j.id = :jobId AND j.last_error IS NOT NULL
          AND j.locked_at IS NULL
        RETURNING j.id::text AS id, t.identifier AS kind, j.last_error`,
      { replacements: { jobId }, type: QueryTypes.SELECT, transaction },
    );
    if (!job)
      throw new FailedJobError("That job is no longer waiting: it ran or was discarded.", {
        status: 409,
      });
    await recordAdminAction(
      admin,
      "job.discard",
      { type: "job", id: job.id },
      { before: { kind: job.kind, error: job.last_error.slice(0, 200) } },
      transaction,
    );
  });
}
