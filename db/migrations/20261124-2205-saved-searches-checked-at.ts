import type { Migration } from "../migrator";

// When the alert worker last looked at a saved search. Each tick takes the searches looked at
// longest ago (never first), so every search is checked in turn however many there are
// (docs/decisions/2153-saved-search-alerts.md).
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE saved_searches ADD COLUMN checked_at timestamptz;
    CREATE INDEX saved_searches_checked_idx ON saved_searches (checked_at NULLS FIRST, id);
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP INDEX IF EXISTS saved_searches_checked_idx;
    ALTER TABLE saved_searches DROP COLUMN IF EXISTS checked_at;
  `);
};
