import type { Migration } from "../migrator";

// The facts a house's sales data gives beyond the basics (docs/decisions/3550): the odometer
// brand, the run condition in three grades, the lot condition code as the feed prints it, the
// sale item number and the yard's grid/row. Lots imported before stay "not stated" (NULL),
// except the run condition of a lot the feed said runs and drives.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE lots
      ADD COLUMN odometer_brand text
        CHECK (odometer_brand IN ('actual', 'not_actual', 'exempt', 'exceeds_limits')),
      ADD COLUMN run_condition text
        CHECK (run_condition IN ('run_and_drive', 'engine_start', 'stationary')),
      ADD COLUMN condition_code text CHECK (length(condition_code) <= 20),
      ADD COLUMN item_number text CHECK (length(item_number) <= 20),
      ADD COLUMN grid_row text CHECK (length(grid_row) <= 20);
    UPDATE lots SET run_condition = 'run_and_drive' WHERE runs_drives;
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE lots DROP COLUMN IF EXISTS odometer_brand, DROP COLUMN IF EXISTS run_condition,
      DROP COLUMN IF EXISTS condition_code, DROP COLUMN IF EXISTS item_number,
      DROP COLUMN IF EXISTS grid_row;
  `);
};
