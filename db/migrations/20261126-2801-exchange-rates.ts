import type { Migration } from "../migrator";

// The rates community prices are compared at: how many units of a currency one US dollar buys,
// as of a date. An admin adds a row for a new date (or corrects one); the newest row on or
// before today is in force, and its date is shown wherever a price is converted
// (docs/decisions/2806-prices-in-the-buyers-currency.md). USD is the base and has no row.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE exchange_rates (
      id bigserial PRIMARY KEY,
      currency text NOT NULL CHECK (currency IN ('CAD', 'MXN')),
      per_usd numeric(14, 6) NOT NULL CHECK (per_usd > 0 AND per_usd <= 100000),
      as_of date NOT NULL,
      set_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (currency, as_of)
    );
    -- A price range is one range per currency (currency = X AND price <= bound): this index
    -- answers each exactly, where the price index alone read every currency's rows.
    CREATE INDEX listings_active_currency_price_idx ON listings (currency, price)
      WHERE status = 'active';
    -- The first rates, so a fresh install converts from the start; admins keep them current.
    INSERT INTO exchange_rates (currency, per_usd, as_of)
    VALUES ('CAD', 1.400000, DATE '2026-11-20'), ('MXN', 19.500000, DATE '2026-11-20');
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP INDEX IF EXISTS listings_active_currency_price_idx;
    DROP TABLE IF EXISTS exchange_rates;
  `);
};
