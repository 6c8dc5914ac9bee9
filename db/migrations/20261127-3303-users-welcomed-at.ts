import type { Migration } from "../migrator";

// When the person first saw their dashboard: until then it greets a first visit as one
// (docs/decisions/3306).
export const up: Migration = async ({ context }) => {
  await context.sequelize.query("ALTER TABLE users ADD COLUMN welcomed_at timestamptz;");
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query("ALTER TABLE users DROP COLUMN IF EXISTS welcomed_at;");
};
