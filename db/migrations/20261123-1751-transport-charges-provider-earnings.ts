import { QueryTypes, type Sequelize } from "sequelize";
import type { Migration } from "../migrator";

// Transport from a won lot is paid before providers see it, and a completed job credits its
// provider once (docs/decisions/1751-transport-charge-and-provider-earnings.md).

/**
 * payment_orders.purpose is a CHECK list that other features extend too; this reads the list as
 * it stands and adds or removes one value, so migrations touching it compose in any order.
 */
async function setPurpose(sequelize: Sequelize, value: string, present: boolean) {
  const rows = await sequelize.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid = 'payment_orders'::regclass AND contype = 'c'
        AND pg_get_constraintdef(oid) LIKE '%purpose%'`,
    { type: QueryTypes.SELECT },
  );
  const values = new Set<string>();
  for (const row of rows) for (const match of row.def.matchAll(/'([^']+)'/g)) values.add(match[1]);
  if (present) values.add(value);
  else values.delete(value);
  for (const row of rows)
    await sequelize.query(`ALTER TABLE payment_orders DROP CONSTRAINT "${row.name}"`);
  const list = [...values].map((v) => `'${v.replace(/'/g, "''")}'`).join(", ");
  await sequelize.query(
    `ALTER TABLE payment_orders ADD CONSTRAINT payment_orders_purpose_check
       CHECK (purpose IN (${list}))`,
  );
}

export const up: Migration = async ({ context }) => {
  await setPurpose(context.sequelize, "service_order", true);
  await context.sequelize.query(`
    -- not_required: staff-made jobs; unpaid: a buyer's job waiting for its payment (not on the
    -- board, cannot be claimed); paid: charged once, see service_order_charges.
    ALTER TABLE service_orders
      ADD COLUMN payment_status text NOT NULL DEFAULT 'not_required'
        CHECK (payment_status IN ('not_required', 'unpaid', 'paid')),
      ADD COLUMN paid_at timestamptz,
      ADD COLUMN payment_order_id uuid REFERENCES payment_orders (id) ON DELETE RESTRICT,
      ADD CONSTRAINT service_orders_paid_at_check CHECK ((payment_status = 'paid') = (paid_at IS NOT NULL)),
      ADD CONSTRAINT service_orders_unpaid_open_check CHECK (payment_status <> 'unpaid' OR status = 'open');

    -- The buyer's side: one charge per order, from the deposit (with its ledger entry) or
    -- through the payment provider (with its captured order).
    CREATE TABLE service_order_charges (
      id bigserial PRIMARY KEY,
      service_order_id bigint NOT NULL UNIQUE REFERENCES service_orders (id) ON DELETE RESTRICT,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      amount numeric(12, 2) NOT NULL CHECK (amount > 0),
      source text NOT NULL CHECK (source IN ('deposit', 'gateway')),
      deposit_entry_id bigint UNIQUE REFERENCES deposit_entries (id) ON DELETE RESTRICT,
      payment_order_id uuid UNIQUE REFERENCES payment_orders (id) ON DELETE RESTRICT,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((source = 'deposit') = (deposit_entry_id IS NOT NULL)),
      CHECK ((source = 'gateway') = (payment_order_id IS NOT NULL))
    );
    CREATE INDEX service_order_charges_user_idx ON service_order_charges (user_id, created_at DESC);

    -- The provider's side: one credit per completed order, the payout net of the platform fee.
    CREATE TABLE provider_earnings (
      id bigserial PRIMARY KEY,
      provider_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      service_order_id bigint NOT NULL UNIQUE REFERENCES service_orders (id) ON DELETE RESTRICT,
      gross numeric(12, 2) NOT NULL CHECK (gross > 0),
      platform_fee numeric(12, 2) NOT NULL CHECK (platform_fee >= 0),
      net numeric(12, 2) NOT NULL CHECK (net >= 0),
      fee_basis_points integer NOT NULL CHECK (fee_basis_points BETWEEN 0 AND 10000),
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (gross = platform_fee + net)
    );
    CREATE INDEX provider_earnings_provider_idx
      ON provider_earnings (provider_id, created_at DESC, id DESC);
  `);
  // Jobs completed before the ledger existed are credited now, at today's fee (default 10%),
  // so every completed job has its one credit.
  const basisPoints = Math.round(Number(process.env.PLATFORM_FEE_PERCENT ?? "10") * 100);
  await context.sequelize.query(
    `INSERT INTO provider_earnings
       (provider_id, service_order_id, gross, platform_fee, net, fee_basis_points, created_at)
     SELECT claimed_by, id, payout, fee, payout - fee, :bp, completed_at
       FROM (SELECT claimed_by, id, payout, completed_at,
                    floor((payout * 100 * :bp + 5000) / 10000) / 100 AS fee
               FROM service_orders WHERE status = 'completed') done`,
    { replacements: { bp: basisPoints } },
  );
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS provider_earnings;
    DROP TABLE IF EXISTS service_order_charges;
    ALTER TABLE service_orders
      DROP COLUMN IF EXISTS payment_order_id,
      DROP COLUMN IF EXISTS paid_at,
      DROP COLUMN IF EXISTS payment_status;
  `);
  await setPurpose(context.sequelize, "service_order", false);
};
