import type { Migration } from "../migrator";

// The zone a person's times are shown in without JavaScript (with it, the browser's own):
// docs/decisions/1802-times-in-the-viewers-zone.md. An IANA name, checked by the app.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE users ADD COLUMN time_zone text NOT NULL DEFAULT 'America/Chicago'
      CHECK (length(time_zone) BETWEEN 1 AND 64);
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query("ALTER TABLE users DROP COLUMN IF EXISTS time_zone;");
};
