import type { Migration } from "../migrator";

// The yards lots sit in, with what a gate pass names (docs/decisions/3314): street address,
// opening hours and phone. Keyed by the house and the yard's name as the feed gives it on each
// lot (lots.yard_name); the import adds a yard it has not seen with its city, state and ZIP.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE yards (
      auction_house text NOT NULL CHECK (auction_house IN ('copart', 'iaai')),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
      street text CHECK (length(street) <= 120),
      city text NOT NULL CHECK (length(city) <= 80),
      state char(2) NOT NULL,
      zip text CHECK (length(zip) <= 10),
      phone text CHECK (length(phone) <= 30),
      hours text CHECK (length(hours) <= 120),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (auction_house, name)
    );
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query("DROP TABLE IF EXISTS yards;");
};
