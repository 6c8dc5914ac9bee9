import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE app_settings (
      key text PRIMARY KEY CHECK (key IN ('maintenance_mode', 'registration_open', 'beta_banner')),
      value jsonb NOT NULL,
      updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE admin_audit_log (
      id bigserial PRIMARY KEY,
      admin_id uuid REFERENCES users (id) ON DELETE SET NULL,
      admin_email text NOT NULL,
      action text NOT NULL CHECK (action ~ '^[a-z_.]{3,60}$'),
      target_type text NOT NULL CHECK (length(target_type) BETWEEN 1 AND 40),
      target_id text CHECK (length(target_id) <= 100),
      before jsonb,
      after jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX admin_audit_log_created_idx ON admin_audit_log (created_at DESC, id DESC);
    CREATE INDEX admin_audit_log_target_idx ON admin_audit_log (target_type, target_id);
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS admin_audit_log;
    DROP TABLE IF EXISTS app_settings;
  `);
};
