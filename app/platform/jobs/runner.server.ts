// The job worker (docs/decisions/3561): graphile-worker running this app's task list and
// schedules, in a process of its own (server/jobs.ts); no web process runs it. Several may run
// at once (two machines, a deploy's overlap): each job is locked by the one that took it.
import { EventEmitter } from "node:events";
import { hostname } from "node:os";
import {
  Logger,
  parseCronItems,
  run,
  runOnce,
  type Runner,
  type WorkerEvents,
} from "graphile-worker";
import pg from "pg";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";
import { jobFailuresTotal, jobRunsTotal } from "~/platform/metrics.server";
import { workContext } from "./context.server";
import { schedules, taskList, type TaskOptions } from "./tasks.server";

export type JobWorkerOptions = TaskOptions & {
  connectionString?: string;
  /** Jobs run at once in this process. */
  concurrency?: number;
  /** How often an idle worker looks for jobs that came due (new jobs wake it at once). */
  pollIntervalMs?: number;
  /** How often this worker says it is alive; one silent for 3 of these is taken as dead. */
  heartbeatMs?: number;
  schedules?: boolean;
};

/** A graphile-worker logger that writes to the app's log, with the job's and request's ids. */
function appLogger() {
  return new Logger((scope) => (level, message, meta) => {
    const store = workContext().getStore();
    const fields: Record<string, unknown> = { component: "jobs" };
    if (scope.jobId ?? store?.jobId) fields.job_id = scope.jobId ?? store?.jobId;
    if (scope.label) fields.scope = scope.label;
    if (store?.requestId) fields.req_id = store.requestId;
    if (meta && "failure" in meta) fields.failure = true;
    // the library's own "completed task" lines are many and say what the run line says
    if (level === "debug" || /^Completed task/.test(message)) return;
    const logger = log();
    if (level === "error") logger.error(fields, message);
    else if (level === "warning") logger.warn(fields, message);
    else logger.info(fields, message);
  });
}

function payloadOf(job: { payload: unknown }) {
  return (job.payload ?? {}) as Record<string, unknown>;
}

/**
 * Each job runs inside a context naming it (and the request that queued it), so every log line
 * it writes carries both; one line per run says how it went.
 */
function withContext(tasks: ReturnType<typeof taskList>): ReturnType<typeof taskList> {
  return Object.fromEntries(
    Object.entries(tasks).map(([kind, task]) => [
      kind,
      (async (payload, helpers) => {
        const requestId = payloadOf({ payload }).requestId;
        const context = {
          jobId: helpers.job.id,
          jobKind: kind,
          ...(typeof requestId === "string" ? { requestId } : {}),
        };
        return workContext().run(context, async () => {
          const started = performance.now();
          try {
            await task(payload, helpers);
            jobRunsTotal.inc({ kind, result: "ok" });
            log().info(
              {
                job_id: helpers.job.id,
                kind,
                attempt: helpers.job.attempts,
                ms: Math.round(performance.now() - started),
                ...(context.requestId ? { req_id: context.requestId } : {}),
              },
              "job",
            );
          } catch (error) {
            jobRunsTotal.inc({ kind, result: "error" });
            jobFailuresTotal.inc({ kind });
            log().warn(
              {
                job_id: helpers.job.id,
                kind,
                attempt: helpers.job.attempts,
                max_attempts: helpers.job.max_attempts,
                err: error,
                ...(context.requestId ? { req_id: context.requestId } : {}),
              },
              "job failed",
            );
            throw error;
          }
        });
      }) as (typeof tasks)[string],
    ]),
  );
}

function poolFor(connectionString: string, max: number) {
  const pool = new pg.Pool({ connectionString, max });
  // a connection lost while idle (the database restarting): the pool makes a new one when asked
  pool.on("error", (error) => log().warn({ err: error }, "jobs: idle connection lost"));
  pool.on("connect", (client) =>
    client.on("error", (error) => log().warn({ err: error }, "jobs: connection lost")),
  );
  return pool;
}

/**
 * The jobs of workers that stopped saying they are alive (killed, their machine gone) are
 * unlocked, so another runs them now instead of after the library's four hours.
 */
async function heartbeat(pool: pg.Pool, workerId: string | null, staleMs: number) {
  if (workerId)
    await pool.query(
      `INSERT INTO job_workers (worker_id, seen_at) VALUES ($1, now())
       ON CONFLICT (worker_id) DO UPDATE SET seen_at = now()`,
      [workerId],
    );
  const { rows } = await pool.query<{ worker_id: string }>(
    `DELETE FROM job_workers WHERE seen_at < now() - $1 * interval '1 millisecond'
     RETURNING worker_id`,
    [staleMs],
  );
  if (rows.length === 0) return;
  const ids = rows.map((row) => row.worker_id);
  await pool.query("SELECT graphile_worker.force_unlock_workers($1::text[])", [ids]);
  log().warn({ workers: ids }, "jobs: unlocked the jobs of workers that stopped");
}

export type JobWorker = { stop(): Promise<void>; runner: Runner; workerId: () => string | null };

/** Starts this process's job worker; resolves once it is taking jobs. */
export async function startJobWorker(options: JobWorkerOptions = {}): Promise<JobWorker> {
  const concurrency = options.concurrency ?? 4;
  const pool = poolFor(options.connectionString ?? env().DATABASE_URL, concurrency + 3);
  const events: WorkerEvents = new EventEmitter() as WorkerEvents;
  let workerId: string | null = null;
  events.on("pool:create", ({ workerPool }) => {
    workerId = workerPool.id;
  });
  const runner = await run({
    pgPool: pool,
    concurrency,
    pollInterval: options.pollIntervalMs ?? 500,
    taskList: withContext(taskList(options)),
    parsedCronItems: parseCronItems(options.schedules === false ? [] : schedules),
    logger: appLogger(),
    events,
    noHandleSignals: true,
  });
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const beat = () =>
    heartbeat(pool, workerId, heartbeatMs * 3).catch((error: unknown) =>
      log().warn({ err: error }, "jobs: heartbeat failed"),
    );
  await beat();
  const timer = setInterval(beat, heartbeatMs);
  log().info({ worker_id: workerId, host: hostname(), concurrency }, "jobs: worker started");
  return {
    runner,
    workerId: () => workerId,
    async stop() {
      clearInterval(timer);
      await runner.stop();
      if (workerId)
        await pool
          .query("DELETE FROM job_workers WHERE worker_id = $1", [workerId])
          .catch(() => undefined);
      await pool.end();
    },
  };
}

/**
 * Runs every job due now, one after another, until none is left (tests and scripts; the worker
 * process is what runs them otherwise).
 */
export async function runDueJobs(options: TaskOptions & { connectionString?: string } = {}) {
  const pool = poolFor(options.connectionString ?? env().DATABASE_URL, 2);
  try {
    await runOnce({
      pgPool: pool,
      taskList: withContext(taskList(options)),
      logger: appLogger(),
      noHandleSignals: true,
    });
  } finally {
    await pool.end();
  }
}
