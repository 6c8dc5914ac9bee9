import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    -- Every object a user puts in storage: binds the upload URL to its owner, size and type, and
    -- is the owner check for every later read.
    CREATE TABLE uploads (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose ~ '^[a-z_]{2,40}$'),
      object_key text NOT NULL UNIQUE CHECK (object_key ~ '^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$'),
      content_type text NOT NULL CHECK (content_type ~ '^[a-z]+/[a-z0-9.+-]+$'),
      size_bytes integer NOT NULL CHECK (size_bytes > 0),
      status text NOT NULL DEFAULT 'issued'
        CHECK (status IN ('issued', 'stored', 'attached', 'discarded')),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX uploads_user_created_idx ON uploads (user_id, created_at DESC);
    CREATE INDEX uploads_stale_idx ON uploads (expires_at) WHERE status IN ('issued', 'stored');

    CREATE TABLE kyc_documents (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      upload_id bigint NOT NULL UNIQUE REFERENCES uploads (id),
      document_type text NOT NULL CHECK (document_type IN ('license', 'passport', 'state_id')),
      object_key text NOT NULL UNIQUE REFERENCES uploads (object_key),
      content_type text NOT NULL
        CHECK (content_type IN ('image/jpeg', 'image/png', 'application/pdf')),
      size_bytes integer NOT NULL CHECK (size_bytes BETWEEN 1 AND 10485760),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
      rejection_reason text CHECK (length(rejection_reason) BETWEEN 1 AND 500),
      reviewed_by uuid REFERENCES users (id) ON DELETE SET NULL,
      reviewed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'rejected') = (rejection_reason IS NOT NULL)),
      CHECK ((status = 'pending') = (reviewed_at IS NULL))
    );
    CREATE INDEX kyc_documents_user_created_idx ON kyc_documents (user_id, created_at DESC, id DESC);
    CREATE INDEX kyc_documents_pending_idx ON kyc_documents (created_at, id) WHERE status = 'pending';
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS kyc_documents;
    DROP TABLE IF EXISTS uploads;
  `);
};
