import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      oidc_subject text UNIQUE,
      email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
      first_name text CHECK (length(first_name) <= 100),
      last_name text CHECK (length(last_name) <= 100),
      role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
      account_type text NOT NULL DEFAULT 'buyer' CHECK (account_type IN ('buyer', 'affiliate')),
      verified boolean NOT NULL DEFAULT false,
      deposit numeric(12, 2) NOT NULL DEFAULT 0 CHECK (deposit >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));
    CREATE INDEX users_created_at_idx ON users (created_at DESC, id);

    CREATE TABLE sessions (
      id text PRIMARY KEY CHECK (length(id) = 64),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX sessions_user_id_idx ON sessions (user_id);
    CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

    CREATE TABLE prelaunch_signups (
      id bigserial PRIMARY KEY,
      email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
      first_name text CHECK (length(first_name) <= 100),
      last_name text CHECK (length(last_name) <= 100),
      source text NOT NULL DEFAULT 'website' CHECK (length(source) <= 50),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX prelaunch_signups_email_lower_key ON prelaunch_signups (lower(email));
    CREATE INDEX prelaunch_signups_created_at_idx ON prelaunch_signups (created_at DESC, id);
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS prelaunch_signups;
    DROP TABLE IF EXISTS sessions;
    DROP TABLE IF EXISTS users;
  `);
};
