// The app's Prometheus metrics (docs/decisions/3003), in prom-client's default registry: the
// production server's primary serves them on METRICS_PORT, summed over its workers
// (server/metrics.ts). Each is listed in the README with the alert to set on it.
//
// A gauge read from the database (the outbox, the closer's lag) is the same on every worker and
// every machine: it is aggregated with max, not summed, and read only when scraped.
import { Counter, Gauge, Histogram, register, type Metric } from "prom-client";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";

/** One instance per name, also when the build is loaded again (`npm run dev`) or a test repeats. */
function once<T extends Metric>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/**
 * A counter shown at zero for its usual label sets from the start: a machine that has not closed
 * a lot or refused a stream yet still reports the series, so an alert on its rate has one to read.
 */
function atZero<L extends string>(counter: Counter<L>, labelSets: Partial<Record<L, string>>[]) {
  for (const labels of labelSets) counter.inc(labels, 0);
  return counter;
}

export const bidsTotal = once("bidyard_bids_total", () =>
  atZero(
    new Counter({
      name: "bidyard_bids_total",
      help: "Bids answered, by outcome (placed, refused) and the refusal's reason",
      labelNames: ["outcome", "reason"],
    }),
    [{ outcome: "placed", reason: "" }],
  ),
);

/** One bid's outcome: "ok" is placed, anything else the refusal's reason. */
export function countBid(code: string) {
  if (code === "ok") bidsTotal.inc({ outcome: "placed", reason: "" });
  else bidsTotal.inc({ outcome: "refused", reason: code });
}

export const rateLimitedTotal = once("bidyard_rate_limited_total", () =>
  atZero(
    new Counter({
      name: "bidyard_rate_limited_total",
      help: "Requests refused with 429 by a rate limit or cap, by which",
      labelNames: ["limit"],
    }),
    [{ limit: "bid" }, { limit: "live_streams" }],
  ),
);

export const liveStreamsRefusedTotal = once("bidyard_live_streams_refused_total", () =>
  atZero(
    new Counter({
      name: "bidyard_live_streams_refused_total",
      help: "Live streams refused, by reason (cap: the person's streams across machines; unavailable: the LISTEN connection is down)",
      labelNames: ["reason"],
    }),
    [{ reason: "cap" }, { reason: "unavailable" }],
  ),
);

export const lotsClosedTotal = once("bidyard_auction_lots_closed_total", () =>
  atZero(
    new Counter({
      name: "bidyard_auction_lots_closed_total",
      help: "Lots this process closed, by result (sold, unsold)",
      labelNames: ["result"],
    }),
    [{ result: "sold" }, { result: "unsold" }],
  ),
);

export const closeDelaySeconds = once(
  "bidyard_auction_close_delay_seconds",
  () =>
    new Histogram({
      name: "bidyard_auction_close_delay_seconds",
      help: "How long after its end a lot was closed",
      buckets: [0.5, 1, 2, 5, 10, 15, 30, 60, 300],
    }),
);

export const jobRunsTotal = once(
  "bidyard_job_runs_total",
  () =>
    new Counter({
      name: "bidyard_job_runs_total",
      help: "Background job runs in this worker process, by kind and result (ok, error)",
      labelNames: ["kind", "result"],
    }),
);

export const jobFailuresTotal = once(
  "bidyard_job_failures_total",
  () =>
    new Counter({
      name: "bidyard_job_failures_total",
      help: "Background job runs that failed in this worker process (each is retried until its last try), by kind",
      labelNames: ["kind"],
    }),
);

/**
 * The queue's state, read from the database when scraped (the same on every process): jobs
 * waiting (due now, not taken), the oldest one's wait, and jobs that used up their tries, by kind.
 */
export function registerQueueMetrics() {
  once(
    "bidyard_jobs_waiting",
    () =>
      new Gauge({
        name: "bidyard_jobs_waiting",
        help: "Background jobs due now that no worker has taken yet",
        aggregator: "max",
        async collect() {
          const [row] = await sequelize.query<{ n: number; age: number | null }>(
            `SELECT count(*)::int AS n, extract(epoch FROM now() - min(run_at))::float AS age
               FROM graphile_worker.jobs
              WHERE run_at <= now() AND locked_at IS NULL AND attempts < max_attempts`,
            { type: QueryTypes.SELECT },
          );
          this.set(row?.n ?? 0);
          oldest.set(Math.max(0, row?.age ?? 0));
        },
      }),
  );
  const oldest = once(
    "bidyard_jobs_oldest_waiting_seconds",
    () =>
      new Gauge({
        name: "bidyard_jobs_oldest_waiting_seconds",
        help: "How long the oldest background job due now has waited past its run time (0 when none)",
        aggregator: "max",
      }),
  );
  once(
    "bidyard_jobs_failed",
    () =>
      new Gauge({
        name: "bidyard_jobs_failed",
        help: "Background jobs that used up their tries and wait for an admin (retry or discard), by kind",
        labelNames: ["kind"],
        aggregator: "max",
        async collect() {
          const rows = await sequelize.query<{ kind: string; n: number }>(
            `SELECT task_identifier AS kind, count(*)::int AS n FROM graphile_worker.jobs
              WHERE attempts >= max_attempts GROUP BY task_identifier`,
            { type: QueryTypes.SELECT },
          );
          this.reset();
          for (const row of rows) this.set({ kind: row.kind }, row.n);
        },
      }),
  );
}

/** Gauges computed when scraped: this process's open streams, its pool, the database's queues. */
export function registerStateMetrics(openStreams: () => number) {
  registerQueueMetrics();
  once(
    "bidyard_live_streams_open",
    () =>
      new Gauge({
        name: "bidyard_live_streams_open",
        help: "Live event streams open",
        collect() {
          this.set(openStreams());
        },
      }),
  );
  type Pool = { size: number; available: number; using: number; waiting: number; maxSize: number };
  // with a replica (docs/decisions/3701) Sequelize keeps two pools: these count the primary's
  const pool = () => {
    const held = (sequelize.connectionManager as unknown as { pool?: Pool & { write?: Pool } })
      .pool;
    return held?.write ?? held;
  };
  once(
    "bidyard_db_pool_connections",
    () =>
      new Gauge({
        name: "bidyard_db_pool_connections",
        help: "Database pool connections, by state (open, in_use, idle, max)",
        labelNames: ["state"],
        collect() {
          const p = pool();
          if (!p) return;
          this.set({ state: "open" }, p.size);
          this.set({ state: "in_use" }, p.using);
          this.set({ state: "idle" }, p.available);
          this.set({ state: "max" }, p.maxSize);
        },
      }),
  );
  once(
    "bidyard_db_pool_waiting",
    () =>
      new Gauge({
        name: "bidyard_db_pool_waiting",
        help: "Queries waiting for a database connection right now",
        collect() {
          this.set(pool()?.waiting ?? 0);
        },
      }),
  );
  once(
    "bidyard_mail_outbox_depth",
    () =>
      new Gauge({
        name: "bidyard_mail_outbox_depth",
        help: "E-mails in the outbox by status (pending, sending, failed)",
        labelNames: ["status"],
        aggregator: "max",
        async collect() {
          const rows = await sequelize.query<{ status: string; n: string }>(
            `SELECT status, count(*) AS n FROM mail_outbox
              WHERE status IN ('pending', 'sending', 'failed') GROUP BY status`,
            { type: QueryTypes.SELECT },
          );
          for (const status of ["pending", "sending", "failed"])
            this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
        },
      }),
  );
  once(
    "bidyard_auction_close_lag_seconds",
    () =>
      new Gauge({
        name: "bidyard_auction_close_lag_seconds",
        help: "How long the open lot furthest past its end has waited for its close job (0 when none)",
        aggregator: "max",
        async collect() {
          const [row] = await sequelize.query<{ lag: number | null }>(
            `SELECT extract(epoch FROM now() - min(ends_at))::float AS lag
               FROM lots WHERE status = 'active' AND ends_at < now()`,
            { type: QueryTypes.SELECT },
          );
          this.set(Math.max(0, row?.lag ?? 0));
        },
      }),
  );
  once(
    "bidyard_refunds_needing_a_person",
    () =>
      new Gauge({
        name: "bidyard_refunds_needing_a_person",
        help: "Refunds of money that was never the deposit's that the provider refused for good and no person has settled yet (/admin/refunds)",
        aggregator: "max",
        async collect() {
          // the open cases of docs/decisions/3502 (capture-refunds.server.ts lists them)
          const [row] = await sequelize.query<{ n: string }>(
            `SELECT count(*) AS n FROM payment_refunds r
               JOIN payment_orders o ON o.id = r.payment_order_id
              WHERE r.status = 'failed' AND r.resolved_at IS NULL AND o.purpose <> 'deposit'`,
            { type: QueryTypes.SELECT },
          );
          this.set(Number(row?.n ?? 0));
        },
      }),
  );
  const acquire = once(
    "bidyard_db_pool_acquire_seconds",
    () =>
      new Histogram({
        name: "bidyard_db_pool_acquire_seconds",
        help: "How long a query waited for a database connection from the pool",
        buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10],
      }),
  );
  watchPoolWaits(acquire);
}

const poolWatched = Symbol.for("bidyard.poolWatched");

/** Times each connection the pool hands out (Sequelize's pool hooks), once per pool. */
function watchPoolWaits(acquire: Histogram) {
  const holder = sequelize as unknown as Record<symbol, boolean>;
  if (holder[poolWatched]) return;
  holder[poolWatched] = true;
  const started = new WeakMap<object, number>();
  sequelize.addHook("beforePoolAcquire", (options: object) => {
    if (options) started.set(options, performance.now());
  });
  sequelize.addHook("afterPoolAcquire", (_connection: unknown, options: object) => {
    const at = options ? started.get(options) : undefined;
    if (at !== undefined) acquire.observe((performance.now() - at) / 1000);
  });
}
