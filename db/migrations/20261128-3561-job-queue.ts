import pg from "pg";
import { runMigrations } from "graphile-worker";
import type { Migration } from "../migrator";

// Background work runs on graphile-worker's queue in this same database (docs/decisions/3560,
// 3561). Its schema is installed here, so a web process can queue jobs before any worker ever
// started; a worker brings it up to date on start.
//
// - Every open lot has one close job at its end time, keyed by the lot: a trigger adds it when
//   the lot is written and moves it (the key's job is replaced) when a soft close extends the
//   end, inside the transaction that wrote the lot. Close jobs go before every other kind.
// - What was pending in the mail outbox gets a send job each.
// - job_workers: each worker process's heartbeat, so the jobs of a worker that died (kill -9, a
//   lost machine) are unlocked by the others within a minute, not after the library's 4 hours.
//
// The trigger and its function below are this migration's own frozen copy; the definitions in
// force are db/functions/050-lots-close-job.sql and 060 (docs/decisions/3601, 3568).
export const up: Migration = async ({ context }) => {
  const config = context.sequelize.config as {
    host?: string;
    port?: string | number;
    database: string;
    username: string;
    password?: string | null;
    ssl?: unknown;
    dialectOptions?: { ssl?: unknown };
  };
  const pgPool = new pg.Pool({
    host: config.host,
    port: config.port ? Number(config.port) : undefined,
    database: config.database,
    user: config.username,
    password: config.password ?? undefined,
    ssl: (config.dialectOptions?.ssl ?? config.ssl) as pg.PoolConfig["ssl"],
    max: 1,
  });
  pgPool.on("error", () => undefined);
  pgPool.on("connect", (client) => client.on("error", () => undefined));
  try {
    await runMigrations({ pgPool, logger: undefined });
  } finally {
    await pgPool.end();
  }
  await context.sequelize.query(`
    CREATE FUNCTION lots_close_job() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.status <> 'active' OR NEW.ends_at IS NULL THEN RETURN NULL; END IF;
      IF TG_OP = 'UPDATE' AND OLD.status = NEW.status AND OLD.ends_at = NEW.ends_at THEN
        RETURN NULL;
      END IF;
      PERFORM graphile_worker.add_job('close_lot', json_build_object('lotId', NEW.id::text),
        run_at => NEW.ends_at, max_attempts => 25, job_key => 'close_lot:' || NEW.id,
        priority => -10, job_key_mode => 'replace');
      RETURN NULL;
    END $$;
    CREATE TRIGGER lots_close_job AFTER INSERT OR UPDATE OF ends_at, status ON lots
      FOR EACH ROW EXECUTE FUNCTION lots_close_job();

    SELECT graphile_worker.add_job('close_lot', json_build_object('lotId', id::text),
             run_at => ends_at, max_attempts => 25, job_key => 'close_lot:' || id,
             priority => -10, job_key_mode => 'replace')
      FROM lots WHERE status = 'active' AND ends_at IS NOT NULL;

    SELECT graphile_worker.add_job('send_mail', json_build_object('id', id::text),
             max_attempts => 21, job_key => 'send_mail:' || id, job_key_mode => 'preserve_run_at')
      FROM mail_outbox WHERE status IN ('pending', 'sending');

    CREATE TABLE job_workers (
      worker_id text PRIMARY KEY CHECK (length(worker_id) BETWEEN 1 AND 200),
      seen_at timestamptz NOT NULL DEFAULT now()
    );
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS job_workers;
    DROP TRIGGER IF EXISTS lots_close_job ON lots;
    DROP FUNCTION IF EXISTS lots_close_job();
    DROP SCHEMA IF EXISTS graphile_worker CASCADE;
  `);
};
