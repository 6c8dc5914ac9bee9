import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    -- Plans are data (docs/decisions/0601): the seed upserts them by code; price 0 is the free tier.
    CREATE TABLE membership_plans (
      id bigserial PRIMARY KEY,
      code text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9-]{2,40}$'),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
      description text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
      price numeric(12, 2) NOT NULL CHECK (price >= 0 AND price <= 100000),
      billing_interval text NOT NULL CHECK (billing_interval IN ('monthly', 'yearly')),
      -- Active listings a member may have; NULL is unlimited.
      vehicle_limit integer CHECK (vehicle_limit > 0),
      featured_listings integer NOT NULL DEFAULT 0 CHECK (featured_listings BETWEEN 0 AND 1000),
      priority_support boolean NOT NULL DEFAULT false,
      advanced_buyer_tools boolean NOT NULL DEFAULT false,
      seller_analytics boolean NOT NULL DEFAULT false,
      active boolean NOT NULL DEFAULT true,
      sort_order integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX membership_plans_active_idx ON membership_plans (sort_order, id) WHERE active;

    CREATE TABLE campaigns (
      id bigserial PRIMARY KEY,
      code text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9-]{2,40}$'),
      type text NOT NULL CHECK (type IN ('membership_trial')),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
      description text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
      trial_days integer CHECK (trial_days BETWEEN 1 AND 365),
      active boolean NOT NULL DEFAULT true,
      starts_at timestamptz NOT NULL DEFAULT now(),
      end_date timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (end_date > starts_at),
      CHECK (type <> 'membership_trial' OR trial_days IS NOT NULL)
    );
    CREATE INDEX campaigns_running_idx ON campaigns (type, end_date) WHERE active;

    -- One membership row per user, changed in place under the user's row lock. It counts while
    -- now() < current_period_end; past that it has expired, with no job needed to say so.
    CREATE TABLE memberships (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
      plan_id bigint NOT NULL REFERENCES membership_plans (id) ON DELETE RESTRICT,
      campaign_id bigint REFERENCES campaigns (id) ON DELETE SET NULL,
      status text NOT NULL CHECK (status IN ('trialing', 'active')),
      current_period_start timestamptz NOT NULL,
      current_period_end timestamptz NOT NULL,
      cancel_at_period_end boolean NOT NULL DEFAULT false,
      cancelled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (current_period_end > current_period_start),
      CHECK (cancel_at_period_end = (cancelled_at IS NOT NULL))
    );
    CREATE INDEX memberships_plan_idx ON memberships (plan_id);
    CREATE INDEX memberships_period_end_idx ON memberships (current_period_end);

    -- A free trial is once per user ever: the primary key refuses a second one, even in a race.
    CREATE TABLE membership_trials (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE RESTRICT,
      plan_id bigint NOT NULL REFERENCES membership_plans (id) ON DELETE RESTRICT,
      started_at timestamptz NOT NULL DEFAULT now(),
      ends_at timestamptz NOT NULL,
      CHECK (ends_at > started_at)
    );
    CREATE INDEX membership_trials_campaign_idx ON membership_trials (campaign_id);

    -- What one payment order buys: a first period (subscribe) or the next one (renew). Applied
    -- once, in the transaction that settles the order.
    CREATE TABLE membership_purchases (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      plan_id bigint NOT NULL REFERENCES membership_plans (id) ON DELETE RESTRICT,
      campaign_id bigint REFERENCES campaigns (id) ON DELETE SET NULL,
      kind text NOT NULL CHECK (kind IN ('subscribe', 'renew')),
      amount numeric(12, 2) NOT NULL CHECK (amount > 0),
      payment_order_id uuid NOT NULL UNIQUE REFERENCES payment_orders (id) ON DELETE RESTRICT,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'applied', 'cancelled')),
      period_start timestamptz,
      period_end timestamptz,
      applied_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'applied') = (applied_at IS NOT NULL AND period_end IS NOT NULL)),
      CHECK (period_end IS NULL OR period_end > period_start)
    );
    CREATE INDEX membership_purchases_user_idx ON membership_purchases (user_id, created_at DESC);
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS membership_purchases;
    DROP TABLE IF EXISTS membership_trials;
    DROP TABLE IF EXISTS memberships;
    DROP TABLE IF EXISTS campaigns;
    DROP TABLE IF EXISTS membership_plans;
  `);
};
