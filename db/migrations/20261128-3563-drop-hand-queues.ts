import type { Migration } from "../migrator";

// What the job queue replaced (docs/decisions/3561): the runs table of the housekeeping loop, and
// the outbox's claim and backoff columns (each message's job now holds its tries and next run;
// the pending ones were given a job by 20261128-3561).
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS job_runs;
    DROP INDEX IF EXISTS mail_outbox_due_idx;
    DROP INDEX IF EXISTS mail_outbox_stuck_idx;
    ALTER TABLE mail_outbox
      DROP COLUMN IF EXISTS claim_token,
      DROP COLUMN IF EXISTS claimed_until,
      DROP COLUMN IF EXISTS next_attempt_at;
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE IF NOT EXISTS job_runs (
      name text PRIMARY KEY CHECK (name ~ '^[a-z_]{2,40}$'),
      last_run_at timestamptz NOT NULL
    );
    ALTER TABLE mail_outbox
      ADD COLUMN IF NOT EXISTS next_attempt_at timestamptz NOT NULL DEFAULT now(),
      ADD COLUMN IF NOT EXISTS claimed_until timestamptz,
      ADD COLUMN IF NOT EXISTS claim_token uuid;
    CREATE INDEX IF NOT EXISTS mail_outbox_due_idx ON mail_outbox (next_attempt_at, id)
      WHERE status = 'pending';
    CREATE INDEX IF NOT EXISTS mail_outbox_stuck_idx ON mail_outbox (claimed_until)
      WHERE status = 'sending';
  `);
};
