import type { Migration } from "../migrator";

// Money e-mails through the outbox (docs/decisions/2754): the won e-mail carries the invoice as an
// HTML attachment; an overdue invoice is told once; outbid notices (written by place_bid) are
// relayed to e-mail once each by the worker tick, which marks what it has looked at.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE mail_outbox ADD COLUMN attachments jsonb
      CHECK (attachments IS NULL
             OR (jsonb_typeof(attachments) = 'array' AND length(attachments::text) <= 200000));

    ALTER TABLE purchases ADD COLUMN overdue_notified_at timestamptz;

    CREATE INDEX notifications_outbid_idx ON notifications (created_at) WHERE kind = 'outbid';
    CREATE TABLE outbid_mail_marks (
      notification_id bigint PRIMARY KEY REFERENCES notifications (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    );
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS outbid_mail_marks;
    DROP INDEX IF EXISTS notifications_outbid_idx;
    ALTER TABLE purchases DROP COLUMN IF EXISTS overdue_notified_at;
    ALTER TABLE mail_outbox DROP COLUMN IF EXISTS attachments;
  `);
};
