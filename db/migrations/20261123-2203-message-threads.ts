import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    -- A buyer's conversation with the seller of one community listing: only these two read it
    -- (docs/decisions/2154-messages-to-a-seller.md).
    CREATE TABLE message_threads (
      id bigserial PRIMARY KEY,
      listing_id bigint NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
      buyer_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      seller_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      last_message_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (listing_id, buyer_id),
      CHECK (buyer_id <> seller_id)
    );
    CREATE INDEX message_threads_buyer_idx ON message_threads (buyer_id, last_message_at DESC);
    CREATE INDEX message_threads_seller_idx ON message_threads (seller_id, last_message_at DESC);

    CREATE TABLE messages (
      id bigserial PRIMARY KEY,
      thread_id bigint NOT NULL REFERENCES message_threads (id) ON DELETE CASCADE,
      sender_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      body text NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX messages_thread_idx ON messages (thread_id, id);

    -- A message one of the two reported to the admins, once per message and reporter.
    CREATE TABLE message_reports (
      id bigserial PRIMARY KEY,
      message_id bigint NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
      reporter_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
      resolved_at timestamptz,
      resolved_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (message_id, reporter_id)
    );
    CREATE INDEX message_reports_open_idx ON message_reports (created_at) WHERE resolved_at IS NULL;
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS message_reports;
    DROP TABLE IF EXISTS messages;
    DROP TABLE IF EXISTS message_threads;
  `);
};
