import type { Migration } from "../migrator";

// Demo lots are marked, so the demo scheduler relists only them and an admin's "end now" works
// only on them, never on a house's real lots (docs/decisions/2755). The seed marks its lots.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE lots ADD COLUMN demo boolean NOT NULL DEFAULT false;
    CREATE INDEX lots_demo_active_idx ON lots (ends_at) WHERE demo AND status = 'active';
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP INDEX IF EXISTS lots_demo_active_idx;
    ALTER TABLE lots DROP COLUMN IF EXISTS demo;
  `);
};
