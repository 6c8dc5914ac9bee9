import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    -- Every e-mail is written here first, in the transaction that decided to send it, and a worker
    -- sends it later with retries (docs/decisions/2151-mail-outbox.md).
    CREATE TABLE mail_outbox (
      id bigserial PRIMARY KEY,
      user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      to_address text NOT NULL CHECK (length(to_address) BETWEEN 3 AND 320),
      topic text NOT NULL CHECK (topic ~ '^[a-z_]{2,40}$'),
      subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 200),
      text_body text NOT NULL CHECK (length(text_body) <= 20000),
      html_body text NOT NULL CHECK (length(html_body) <= 60000),
      -- Set when a caller must not queue the same message twice (an alert for one match, say).
      dedupe_key text UNIQUE CHECK (dedupe_key IS NULL OR length(dedupe_key) <= 200),
      status text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'cancelled')),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      claimed_until timestamptz,
      last_error text,
      message_id text NOT NULL UNIQUE,
      sent_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'sent') = (sent_at IS NOT NULL))
    );
    CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, id) WHERE status = 'pending';
    CREATE INDEX mail_outbox_stuck_idx ON mail_outbox (claimed_until) WHERE status = 'sending';

    -- Topics a person asked not to be mailed about (a one-click unsubscribe writes here).
    CREATE TABLE mail_unsubscribes (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      topic text NOT NULL CHECK (topic ~ '^[a-z_]{2,40}$'),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, topic)
    );
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS mail_unsubscribes;
    DROP TABLE IF EXISTS mail_outbox;
  `);
};
