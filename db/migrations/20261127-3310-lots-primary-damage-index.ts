import type { Migration } from "../migrator";

// The auction list filters by the houses' own primary damage names (docs/decisions/3310): an
// index like the other filters' so a filtered page stays a short index walk in end order.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE INDEX IF NOT EXISTS lots_open_primary_damage_idx
      ON lots (primary_damage, ends_at, id) WHERE status = 'active';
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query("DROP INDEX IF EXISTS lots_open_primary_damage_idx;");
};
