import type { Migration } from "../migrator";

// A transport order names the vehicle as the yard and the provider know it (docs/decisions/2705):
// the auction house and ITS lot number (not our internal lot id), the body type decoded from the
// VIN, and the delivery ZIP code when the buyer gave one. Copied onto the order when it is made,
// like the rest of its route; orders made before are filled in from their lots.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE service_orders
      ADD COLUMN auction_house text CHECK (auction_house IN ('copart', 'iaai')),
      ADD COLUMN lot_number text CHECK (lot_number ~ '^[A-Za-z0-9-]{1,20}$'),
      ADD COLUMN body_style text CHECK (length(body_style) <= 120),
      ADD COLUMN delivery_zip text CHECK (delivery_zip ~ '^[0-9]{5}$'),
      ADD CONSTRAINT service_orders_delivery_zip_shipping_check
        CHECK (delivery_zip IS NULL OR service_type = 'shipping');
    UPDATE service_orders o SET auction_house = l.auction_house, lot_number = l.lot_number,
           body_style = l.body_style
      FROM lots l WHERE l.id = o.lot_id;
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE service_orders DROP CONSTRAINT IF EXISTS service_orders_delivery_zip_shipping_check,
      DROP COLUMN IF EXISTS delivery_zip, DROP COLUMN IF EXISTS body_style,
      DROP COLUMN IF EXISTS lot_number, DROP COLUMN IF EXISTS auction_house;
  `);
};
