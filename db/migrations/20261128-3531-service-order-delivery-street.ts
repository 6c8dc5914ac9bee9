import type { Migration } from "../migrator";

// The street of a shipping job's delivery address (docs/decisions/3531): the carrier that claims
// the job needs the door, not only the ZIP's area. Optional; only shipping jobs carry one.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE service_orders
      ADD COLUMN delivery_street text CHECK (length(delivery_street) BETWEEN 1 AND 120),
      ADD CONSTRAINT service_orders_delivery_street_shipping_check
        CHECK (delivery_street IS NULL OR service_type = 'shipping');
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE service_orders
      DROP CONSTRAINT IF EXISTS service_orders_delivery_street_shipping_check,
      DROP COLUMN IF EXISTS delivery_street;
  `);
};
