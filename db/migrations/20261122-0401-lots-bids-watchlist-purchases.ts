import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    CREATE TABLE lots (
      id bigserial PRIMARY KEY,
      auction_house text NOT NULL CHECK (auction_house IN ('copart', 'iaai')),
      lot_number text NOT NULL CHECK (lot_number ~ '^[A-Za-z0-9-]{1,20}$'),
      vin text NOT NULL CHECK (length(vin) BETWEEN 5 AND 17),
      year integer NOT NULL CHECK (year BETWEEN 1900 AND 2100),
      make text NOT NULL CHECK (length(make) BETWEEN 1 AND 40),
      model text NOT NULL CHECK (length(model) BETWEEN 1 AND 60),
      trim_level text CHECK (length(trim_level) <= 80),
      body_style text CHECK (length(body_style) <= 60),
      color text CHECK (length(color) <= 40),
      location_city text NOT NULL CHECK (length(location_city) BETWEEN 1 AND 80),
      location_state char(2) NOT NULL CHECK (location_state ~ '^[A-Z]{2}$'),
      location_zip text CHECK (length(location_zip) <= 10),
      yard_name text CHECK (length(yard_name) <= 80),
      damage_type text NOT NULL DEFAULT 'other' CHECK (damage_type IN
        ('collision', 'flood', 'hail', 'theft', 'fire', 'mechanical', 'vandalism', 'other')),
      primary_damage text CHECK (length(primary_damage) <= 60),
      secondary_damage text CHECK (length(secondary_damage) <= 60),
      title_state char(2) CHECK (title_state ~ '^[A-Z]{2}$'),
      title_type text NOT NULL DEFAULT 'clean' CHECK (title_type IN
        ('clean', 'salvage', 'rebuilt', 'certificate_of_destruction', 'parts_only', 'other')),
      odometer integer CHECK (odometer >= 0),
      runs_drives boolean NOT NULL DEFAULT false,
      has_keys boolean NOT NULL DEFAULT false,
      estimated_value numeric(12, 2) NOT NULL DEFAULT 0 CHECK (estimated_value >= 0),
      repair_cost numeric(12, 2) CHECK (repair_cost >= 0),
      image_urls text[] NOT NULL DEFAULT '{}',
      starts_at timestamptz NOT NULL,
      ends_at timestamptz NOT NULL,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'sold', 'unsold')),
      current_bid numeric(12, 2) NOT NULL DEFAULT 0 CHECK (current_bid >= 0),
      bid_count integer NOT NULL DEFAULT 0 CHECK (bid_count >= 0),
      high_bidder_id uuid REFERENCES users (id) ON DELETE RESTRICT,
      -- the leader's maximum: what the lot holds against the leader's deposit
      high_max numeric(12, 2) CHECK (high_max >= current_bid),
      closed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (ends_at > starts_at),
      CHECK ((high_bidder_id IS NULL) = (high_max IS NULL)),
      CHECK (status <> 'sold' OR high_bidder_id IS NOT NULL),
      CHECK ((status = 'active') = (closed_at IS NULL))
    );
    CREATE UNIQUE INDEX lots_house_lot_number_key ON lots (auction_house, lot_number);
    CREATE INDEX lots_vin_idx ON lots (vin);
    -- open lots ordered by ending time (the list's keyset), one per filter path
    CREATE INDEX lots_open_ends_idx ON lots (ends_at, id) WHERE status = 'active';
    CREATE INDEX lots_open_house_idx ON lots (auction_house, ends_at, id) WHERE status = 'active';
    CREATE INDEX lots_open_make_idx ON lots (make, ends_at, id) WHERE status = 'active';
    CREATE INDEX lots_open_damage_idx ON lots (damage_type, ends_at, id) WHERE status = 'active';
    CREATE INDEX lots_open_state_idx ON lots (location_state, ends_at, id) WHERE status = 'active';
    CREATE INDEX lots_open_title_idx ON lots (title_type, ends_at, id) WHERE status = 'active';
    CREATE INDEX lots_open_year_idx ON lots (year, ends_at, id) WHERE status = 'active';
    CREATE INDEX lots_open_make_state_idx ON lots (make, location_state, ends_at, id)
      WHERE status = 'active';
    CREATE INDEX lots_search_trgm_idx ON lots
      USING gin ((make || ' ' || model || ' ' || vin) gin_trgm_ops);
    CREATE INDEX lots_closed_idx ON lots (ends_at DESC, id DESC) WHERE status <> 'active';
    CREATE INDEX lots_leader_open_idx ON lots (high_bidder_id) WHERE status = 'active';

    CREATE TABLE bids (
      id bigserial PRIMARY KEY,
      lot_id bigint NOT NULL REFERENCES lots (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      amount numeric(12, 2) NOT NULL CHECK (amount > 0),
      max_amount numeric(12, 2) NOT NULL CHECK (max_amount >= amount),
      is_proxy boolean NOT NULL DEFAULT false,
      -- a raise the engine made for a standing proxy, not typed by the bidder
      automatic boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK (is_proxy OR max_amount = amount)
    );
    CREATE INDEX bids_lot_idx ON bids (lot_id, id DESC);
    CREATE INDEX bids_lot_max_idx ON bids (lot_id, max_amount DESC, id) WHERE NOT automatic;
    CREATE INDEX bids_user_lot_idx ON bids (user_id, lot_id);

    CREATE TABLE watchlist (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      lot_id bigint NOT NULL REFERENCES lots (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, lot_id)
    );
    CREATE INDEX watchlist_lot_idx ON watchlist (lot_id);

    CREATE TABLE purchases (
      id bigserial PRIMARY KEY,
      lot_id bigint NOT NULL UNIQUE REFERENCES lots (id) ON DELETE RESTRICT,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
      amount numeric(12, 2) NOT NULL CHECK (amount > 0),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'cancelled')),
      paid_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'paid') = (paid_at IS NOT NULL))
    );
    CREATE INDEX purchases_user_idx ON purchases (user_id, created_at DESC, id DESC);
    CREATE INDEX purchases_user_unpaid_idx ON purchases (user_id) WHERE status = 'pending';
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS purchases;
    DROP TABLE IF EXISTS watchlist;
    DROP TABLE IF EXISTS bids;
    DROP TABLE IF EXISTS lots;
  `);
};
