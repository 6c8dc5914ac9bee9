import type { Migration } from "../migrator";

// What people send through the Contact page: the admins' inbox (docs/decisions/3301). A message
// outlives its sender's account (user_id set null), since it may be a request to delete it.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE contact_messages (
      id bigserial PRIMARY KEY,
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
      topic text NOT NULL CHECK (topic IN ('account', 'deposit', 'purchase', 'privacy', 'other')),
      body text NOT NULL CHECK (length(body) BETWEEN 1 AND 4000),
      created_at timestamptz NOT NULL DEFAULT now(),
      answered_at timestamptz,
      answered_by uuid REFERENCES users (id) ON DELETE SET NULL
    );
    CREATE INDEX contact_messages_open_idx ON contact_messages (created_at, id)
      WHERE answered_at IS NULL;
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query("DROP TABLE IF EXISTS contact_messages;");
};
