import type { Migration } from "../migrator";

// A message of an in-order topic (transport) waits for an earlier one to the same person that is
// waiting for a retry (docs/decisions/3534): this index finds that earlier message without
// reading the whole outbox.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE INDEX mail_outbox_in_order_idx ON mail_outbox (user_id, topic, id)
      WHERE status IN ('pending', 'sending');
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query("DROP INDEX IF EXISTS mail_outbox_in_order_idx;");
};
