import type { Migration } from "../migrator";

// The phone number typed when registering, kept on the account (docs/decisions/3304).
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE users ADD COLUMN phone text CHECK (length(phone) BETWEEN 1 AND 40);
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query("ALTER TABLE users DROP COLUMN IF EXISTS phone;");
};
