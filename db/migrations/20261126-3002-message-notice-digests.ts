import type { Migration } from "../migrator";

// Message notices are combined: one e-mail per thread and recipient per quarter-hour, listing
// the messages that came (docs/decisions/3009). A new message marks the pair pending; the worker
// tick mails what is pending once the last notice is 15 minutes old.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE message_notices (
      thread_id bigint NOT NULL REFERENCES message_threads (id) ON DELETE CASCADE,
      recipient_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      -- set by the first message not yet mailed, cleared when the notice is queued
      pending_since timestamptz,
      last_sent_at timestamptz,
      -- the newest message a notice has listed
      last_message_id bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (thread_id, recipient_id)
    );
    CREATE INDEX message_notices_pending_idx ON message_notices (pending_since)
      WHERE pending_since IS NOT NULL;
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query("DROP TABLE IF EXISTS message_notices;");
};
