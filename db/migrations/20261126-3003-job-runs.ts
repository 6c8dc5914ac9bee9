import type { Migration } from "../migrator";

// When each periodic job last ran, whichever machine ran it: housekeeping runs once per interval
// across all machines, not once per machine (docs/decisions/3010).
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE job_runs (
      name text PRIMARY KEY CHECK (name ~ '^[a-z_]{2,40}$'),
      last_run_at timestamptz NOT NULL
    );
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query("DROP TABLE IF EXISTS job_runs;");
};
