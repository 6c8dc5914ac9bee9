import type { Migration } from "../migrator";

// A refund the provider refused for good, of money that never belonged to the deposit (a
// transport order's, an invoice's or a membership's capture), waits for a person: why the
// provider refused it, and when a person settled it (docs/decisions/3502).
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE payment_refunds ADD COLUMN failure_reason text;
    ALTER TABLE payment_refunds ADD COLUMN resolved_at timestamptz;
    ALTER TABLE payment_refunds ADD COLUMN resolved_by uuid REFERENCES users (id);
    ALTER TABLE payment_refunds ADD COLUMN resolution text;
    CREATE INDEX payment_refunds_failed_open ON payment_refunds (created_at)
      WHERE status = 'failed' AND resolved_at IS NULL;
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP INDEX IF EXISTS payment_refunds_failed_open;
    ALTER TABLE payment_refunds DROP COLUMN IF EXISTS resolution;
    ALTER TABLE payment_refunds DROP COLUMN IF EXISTS resolved_by;
    ALTER TABLE payment_refunds DROP COLUMN IF EXISTS resolved_at;
    ALTER TABLE payment_refunds DROP COLUMN IF EXISTS failure_reason;
  `);
};
