import type { Migration } from "../migrator";

// A thread about a claimed transport job, between its buyer (buyer_id) and the carrier that
// claimed it (seller_id), beside the listing threads (docs/decisions/3535). A thread is about
// exactly one listing or one service order; one thread per service order.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE message_threads
      ALTER COLUMN listing_id DROP NOT NULL,
      ADD COLUMN service_order_id bigint REFERENCES service_orders (id) ON DELETE CASCADE,
      ADD CONSTRAINT message_threads_about_one_check
        CHECK ((listing_id IS NULL) <> (service_order_id IS NULL));
    CREATE UNIQUE INDEX message_threads_service_order_key ON message_threads (service_order_id);
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DELETE FROM message_threads WHERE service_order_id IS NOT NULL;
    DROP INDEX IF EXISTS message_threads_service_order_key;
    ALTER TABLE message_threads
      DROP CONSTRAINT IF EXISTS message_threads_about_one_check,
      DROP COLUMN IF EXISTS service_order_id,
      ALTER COLUMN listing_id SET NOT NULL;
  `);
};
