import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    -- A saved /auctions or /community-vehicles filter. Lots or listings with an id above after_id
    -- are new to it (docs/decisions/2153-saved-search-alerts.md).
    CREATE TABLE saved_searches (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      scope text NOT NULL CHECK (scope IN ('auctions', 'community')),
      query text NOT NULL CHECK (length(query) <= 1000),
      label text NOT NULL CHECK (length(label) BETWEEN 1 AND 200),
      email boolean NOT NULL DEFAULT true,
      after_id bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, scope, query)
    );

    -- One row per (search, lot or listing) ever alerted: the primary key is what makes an alert
    -- happen once, however many workers run.
    CREATE TABLE saved_search_matches (
      saved_search_id bigint NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
      item_id bigint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (saved_search_id, item_id)
    );

    -- "A lot you watch ends soon", once per person and lot.
    CREATE TABLE watch_alerts (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      lot_id bigint NOT NULL REFERENCES lots (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('ending_soon')),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, lot_id, kind)
    );
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS watch_alerts;
    DROP TABLE IF EXISTS saved_search_matches;
    DROP TABLE IF EXISTS saved_searches;
  `);
};
