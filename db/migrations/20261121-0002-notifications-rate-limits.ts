import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE notifications (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind ~ '^[a-z_]{2,40}$'),
      title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
      body text NOT NULL DEFAULT '' CHECK (length(body) <= 2000),
      link text CHECK (link IS NULL OR (link LIKE '/%' AND link NOT LIKE '//%')),
      read_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX notifications_user_created_idx ON notifications (user_id, created_at DESC, id DESC);
    CREATE INDEX notifications_user_unread_idx ON notifications (user_id) WHERE read_at IS NULL;

    -- rate-limiter-flexible's table (the library's own shape), so counters are shared by every
    -- app machine.
    CREATE TABLE rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    );
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS rate_limits;
    DROP TABLE IF EXISTS notifications;
  `);
};
