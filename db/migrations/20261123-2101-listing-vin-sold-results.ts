import type { Migration } from "../migrator";

// A community listing may carry its VIN (decoded on the page, checked on posting: records 2101,
// 2102). Sold lots are searched by make and model, newest first, for results and comparable
// sales (record 2104): a partial index over the sold ones only.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE listings ADD COLUMN vin text CHECK (vin ~ '^[A-HJ-NPR-Z0-9]{17}$');
    CREATE INDEX lots_sold_make_model_idx ON lots (make, model, closed_at DESC, id DESC)
      WHERE status = 'sold';
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP INDEX IF EXISTS lots_sold_make_model_idx;
    ALTER TABLE listings DROP COLUMN IF EXISTS vin;
  `);
};
