import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    -- Our side of every order sent to a payment provider, whatever it pays for.
    CREATE TABLE payment_orders (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      purpose text NOT NULL CHECK (purpose IN ('deposit', 'membership')),
      provider text NOT NULL CHECK (provider IN ('paypal', 'test')),
      provider_order_id text NOT NULL CHECK (length(provider_order_id) BETWEEN 1 AND 64),
      idempotency_key text NOT NULL UNIQUE CHECK (length(idempotency_key) BETWEEN 8 AND 100),
      description text NOT NULL CHECK (length(description) BETWEEN 1 AND 127),
      amount numeric(12, 2) NOT NULL CHECK (amount > 0),
      currency text NOT NULL DEFAULT 'USD' CHECK (currency = 'USD'),
      status text NOT NULL DEFAULT 'created'
        CHECK (status IN ('created', 'captured', 'cancelled', 'failed')),
      captured_amount numeric(12, 2) CHECK (captured_amount > 0),
      capture_id text CHECK (length(capture_id) BETWEEN 1 AND 64),
      captured_at timestamptz,
      refunded_amount numeric(12, 2) NOT NULL DEFAULT 0
        CHECK (refunded_amount >= 0 AND refunded_amount <= coalesce(captured_amount, 0)),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'captured') = (captured_amount IS NOT NULL AND capture_id IS NOT NULL))
    );
    CREATE UNIQUE INDEX payment_orders_provider_order_key ON payment_orders (provider, provider_order_id);
    CREATE INDEX payment_orders_user_idx ON payment_orders (user_id, purpose, created_at DESC);
    CREATE INDEX payment_orders_refundable_idx ON payment_orders (user_id, captured_at DESC)
      WHERE status = 'captured' AND purpose = 'deposit';

    -- One refund sent to the provider against one capture.
    CREATE TABLE payment_refunds (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      payment_order_id uuid NOT NULL REFERENCES payment_orders (id) ON DELETE RESTRICT,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      amount numeric(12, 2) NOT NULL CHECK (amount > 0),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed')),
      provider_refund_id text UNIQUE CHECK (length(provider_refund_id) BETWEEN 1 AND 64),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX payment_refunds_order_idx ON payment_refunds (payment_order_id);
    CREATE INDEX payment_refunds_user_idx ON payment_refunds (user_id, created_at DESC);
    CREATE INDEX payment_refunds_pending_idx ON payment_refunds (created_at) WHERE status = 'pending';

    -- Every change of a user's deposit, with the balance it left.
    CREATE TABLE deposit_entries (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      kind text NOT NULL CHECK (kind IN ('deposit', 'refund', 'applied', 'adjustment')),
      amount numeric(12, 2) NOT NULL CHECK (amount <> 0),
      balance_after numeric(12, 2) NOT NULL CHECK (balance_after >= 0),
      payment_order_id uuid REFERENCES payment_orders (id) ON DELETE RESTRICT,
      payment_refund_id uuid REFERENCES payment_refunds (id) ON DELETE RESTRICT,
      memo text NOT NULL DEFAULT '' CHECK (length(memo) <= 200),
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (kind <> 'deposit' OR (amount > 0 AND payment_order_id IS NOT NULL)),
      CHECK (kind <> 'refund' OR (amount < 0 AND payment_refund_id IS NOT NULL)),
      CHECK (kind <> 'applied' OR amount < 0)
    );
    -- Credit exactly once per provider order.
    CREATE UNIQUE INDEX deposit_entries_deposit_order_key ON deposit_entries (payment_order_id)
      WHERE kind = 'deposit';
    CREATE UNIQUE INDEX deposit_entries_refund_key ON deposit_entries (payment_refund_id)
      WHERE kind = 'refund';
    CREATE INDEX deposit_entries_user_idx ON deposit_entries (user_id, created_at DESC, id DESC);

    -- The built-in TEST MODE gateway's own books (the provider side), shared by every process.
    CREATE TABLE test_gateway_orders (
      id text PRIMARY KEY CHECK (id ~ '^TEST-[A-Z0-9]{16}$'),
      request_id text NOT NULL UNIQUE,
      amount numeric(12, 2) NOT NULL CHECK (amount > 0),
      currency text NOT NULL CHECK (currency = 'USD'),
      description text NOT NULL,
      return_url text NOT NULL,
      cancel_url text NOT NULL,
      status text NOT NULL DEFAULT 'CREATED'
        CHECK (status IN ('CREATED', 'APPROVED', 'COMPLETED', 'VOIDED')),
      capture_id text UNIQUE,
      refunded_amount numeric(12, 2) NOT NULL DEFAULT 0
        CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE test_gateway_refunds (
      id text PRIMARY KEY,
      request_id text NOT NULL UNIQUE,
      order_id text NOT NULL REFERENCES test_gateway_orders (id) ON DELETE CASCADE,
      amount numeric(12, 2) NOT NULL CHECK (amount > 0),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX test_gateway_refunds_order_idx ON test_gateway_refunds (order_id);
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS test_gateway_refunds;
    DROP TABLE IF EXISTS test_gateway_orders;
    DROP TABLE IF EXISTS deposit_entries;
    DROP TABLE IF EXISTS payment_refunds;
    DROP TABLE IF EXISTS payment_orders;
  `);
};
