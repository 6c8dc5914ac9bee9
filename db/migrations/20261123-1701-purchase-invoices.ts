import type { Migration } from "../migrator";

// Invoices on purchases (docs/decisions/1701, 1702): the fee schedules and payment terms in the
// database (admins edit them), the fee lines frozen on each purchase when its lot closes, the
// purchase's own ledger (what paid it: the deposit part, the gateway part; a default fee), and
// the link from a gateway order to the purchase it pays.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    -- One band of one fee schedule: fee = fee_cents + price * percent_bp / 10000 for a sale price
    -- in [min_cents, max_cents) (max_cents NULL: no upper bound). Flat fees are one band from 0.
    CREATE TABLE fee_bands (
      id bigserial PRIMARY KEY,
      schedule text NOT NULL
        CHECK (schedule IN ('buyer_clean', 'buyer_nonclean', 'internet', 'gate', 'broker')),
      min_cents bigint NOT NULL CHECK (min_cents >= 0),
      max_cents bigint CHECK (max_cents > min_cents),
      fee_cents bigint NOT NULL DEFAULT 0 CHECK (fee_cents BETWEEN 0 AND 100000000),
      percent_bp integer NOT NULL DEFAULT 0 CHECK (percent_bp BETWEEN 0 AND 10000),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (schedule, min_cents)
    );

    -- The payment terms: one row.
    CREATE TABLE purchase_terms (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      due_business_days integer NOT NULL CHECK (due_business_days BETWEEN 1 AND 30),
      late_fee_cents bigint NOT NULL CHECK (late_fee_cents BETWEEN 0 AND 10000000),
      storage_free_days integer NOT NULL CHECK (storage_free_days BETWEEN 0 AND 60),
      storage_per_day_cents bigint NOT NULL CHECK (storage_per_day_cents BETWEEN 0 AND 1000000),
      default_grace_days integer NOT NULL CHECK (default_grace_days BETWEEN 0 AND 60),
      default_fee_cents bigint NOT NULL CHECK (default_fee_cents BETWEEN 0 AND 10000000),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    ALTER TABLE purchases DROP CONSTRAINT purchases_status_check;
    ALTER TABLE purchases ADD CONSTRAINT purchases_status_check
      CHECK (status IN ('pending', 'paid', 'cancelled', 'defaulted'));
    ALTER TABLE purchases
      ADD COLUMN title_type text NOT NULL DEFAULT 'clean',
      ADD COLUMN buyer_fee numeric(12, 2) NOT NULL DEFAULT 0 CHECK (buyer_fee >= 0),
      ADD COLUMN internet_fee numeric(12, 2) NOT NULL DEFAULT 0 CHECK (internet_fee >= 0),
      ADD COLUMN gate_fee numeric(12, 2) NOT NULL DEFAULT 0 CHECK (gate_fee >= 0),
      ADD COLUMN broker_fee numeric(12, 2) NOT NULL DEFAULT 0 CHECK (broker_fee >= 0),
      -- set when the purchase is paid after its due date
      ADD COLUMN late_fee numeric(12, 2) NOT NULL DEFAULT 0 CHECK (late_fee >= 0),
      ADD COLUMN due_at timestamptz,
      ADD COLUMN pickup_code text CHECK (pickup_code ~ '^[A-Z0-9]{8}$'),
      ADD COLUMN due_reminded_at timestamptz,
      ADD COLUMN defaulted_at timestamptz,
      ADD CONSTRAINT purchases_defaulted_check CHECK ((status = 'defaulted') = (defaulted_at IS NOT NULL));
    CREATE INDEX purchases_due_idx ON purchases (due_at) WHERE status = 'pending';

    ALTER TABLE payment_orders DROP CONSTRAINT payment_orders_purpose_check;
    ALTER TABLE payment_orders ADD CONSTRAINT payment_orders_purpose_check
      CHECK (purpose IN ('deposit', 'membership', 'purchase'));

    -- The deposit debit that paid (part of) a purchase, or its default fee: at most one each.
    ALTER TABLE deposit_entries ADD COLUMN purchase_id bigint REFERENCES purchases (id) ON DELETE RESTRICT;
    CREATE UNIQUE INDEX deposit_entries_purchase_key ON deposit_entries (purchase_id, kind)
      WHERE purchase_id IS NOT NULL;

    -- A gateway order started to pay a purchase, with the split it was started for.
    CREATE TABLE purchase_payment_orders (
      payment_order_id uuid PRIMARY KEY REFERENCES payment_orders (id) ON DELETE RESTRICT,
      purchase_id bigint NOT NULL REFERENCES purchases (id) ON DELETE RESTRICT,
      total numeric(12, 2) NOT NULL CHECK (total > 0),
      deposit_part numeric(12, 2) NOT NULL CHECK (deposit_part >= 0),
      late_fee numeric(12, 2) NOT NULL DEFAULT 0 CHECK (late_fee >= 0),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX purchase_payment_orders_purchase_idx ON purchase_payment_orders (purchase_id);

    -- Every movement of money for a purchase. A paid purchase's 'deposit' + 'gateway' entries sum
    -- to its total; each kind at most once per purchase.
    CREATE TABLE purchase_entries (
      id bigserial PRIMARY KEY,
      purchase_id bigint NOT NULL REFERENCES purchases (id) ON DELETE RESTRICT,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      kind text NOT NULL CHECK (kind IN ('deposit', 'gateway', 'default_fee')),
      amount numeric(12, 2) NOT NULL CHECK (amount > 0),
      deposit_entry_id bigint REFERENCES deposit_entries (id) ON DELETE RESTRICT,
      payment_order_id uuid REFERENCES payment_orders (id) ON DELETE RESTRICT,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (purchase_id, kind),
      CHECK (kind <> 'gateway' OR payment_order_id IS NOT NULL),
      CHECK (kind = 'gateway' OR deposit_entry_id IS NOT NULL)
    );
    CREATE INDEX purchase_entries_user_idx ON purchase_entries (user_id, created_at DESC);
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS purchase_entries;
    DROP TABLE IF EXISTS purchase_payment_orders;
    DROP INDEX IF EXISTS deposit_entries_purchase_key;
    ALTER TABLE deposit_entries DROP COLUMN IF EXISTS purchase_id;
    ALTER TABLE payment_orders DROP CONSTRAINT payment_orders_purpose_check;
    ALTER TABLE payment_orders ADD CONSTRAINT payment_orders_purpose_check
      CHECK (purpose IN ('deposit', 'membership'));
    DROP INDEX IF EXISTS purchases_due_idx;
    ALTER TABLE purchases DROP CONSTRAINT purchases_defaulted_check;
    ALTER TABLE purchases DROP COLUMN title_type, DROP COLUMN buyer_fee,
      DROP COLUMN internet_fee, DROP COLUMN gate_fee, DROP COLUMN broker_fee,
      DROP COLUMN late_fee, DROP COLUMN due_at, DROP COLUMN pickup_code,
      DROP COLUMN due_reminded_at, DROP COLUMN defaulted_at;
    ALTER TABLE purchases DROP CONSTRAINT purchases_status_check;
    ALTER TABLE purchases ADD CONSTRAINT purchases_status_check
      CHECK (status IN ('pending', 'paid', 'cancelled'));
    DROP TABLE IF EXISTS purchase_terms;
    DROP TABLE IF EXISTS fee_bands;
  `);
};
