import type { Migration } from "../migrator";

// Community listings, their photos and users' favourites. Deleted listings stay as rows with
// status 'deleted' so they keep counting against the free allowance (docs/decisions/0502).
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    CREATE TABLE listings (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 120),
      description text NOT NULL DEFAULT '' CHECK (length(description) <= 5000),
      make text NOT NULL CHECK (length(btrim(make)) BETWEEN 1 AND 40),
      model text NOT NULL CHECK (length(btrim(model)) BETWEEN 1 AND 60),
      -- The upper bound only ever grows, so a stored row never becomes invalid.
      year integer NOT NULL
        CHECK (year >= 1900 AND year <= extract(year FROM now())::integer + 1),
      mileage integer CHECK (mileage IS NULL OR mileage BETWEEN 0 AND 2000000),
      price numeric(12, 2) NOT NULL CHECK (price > 0),
      currency text NOT NULL DEFAULT 'USD' CHECK (currency IN ('USD', 'CAD', 'MXN')),
      condition text NOT NULL CHECK (condition IN ('excellent', 'good', 'fair', 'poor')),
      fuel_type text CHECK (fuel_type IN ('gasoline', 'diesel', 'electric', 'hybrid')),
      transmission text CHECK (transmission IN ('automatic', 'manual')),
      drivetrain text CHECK (drivetrain IN ('FWD', 'RWD', 'AWD', '4WD')),
      exterior_color text CHECK (length(exterior_color) <= 40),
      interior_color text CHECK (length(interior_color) <= 40),
      body_type text
        CHECK (body_type IN ('sedan', 'suv', 'truck', 'coupe', 'convertible', 'hatchback')),
      country text NOT NULL DEFAULT 'US' CHECK (country IN ('US', 'CA', 'MX')),
      state text CHECK (length(state) <= 60),
      city text NOT NULL CHECK (length(btrim(city)) BETWEEN 1 AND 80),
      zip_code text CHECK (length(zip_code) <= 12),
      featured boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'sold', 'deleted')),
      sold_at timestamptz,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'sold') = (sold_at IS NOT NULL) OR status = 'deleted'),
      CHECK ((status = 'deleted') = (deleted_at IS NOT NULL))
    );

    -- Browsing shows active listings newest first (keyset on created_at, id); one partial index
    -- per filter path, each ending in the sort keys so a filtered first page is an index scan.
    CREATE INDEX listings_active_recent_idx ON listings (created_at DESC, id DESC)
      WHERE status = 'active';
    CREATE INDEX listings_active_make_model_idx
      ON listings (lower(make), lower(model), created_at DESC, id DESC) WHERE status = 'active';
    CREATE INDEX listings_active_condition_idx
      ON listings (condition, created_at DESC, id DESC) WHERE status = 'active';
    CREATE INDEX listings_active_body_type_idx
      ON listings (body_type, created_at DESC, id DESC) WHERE status = 'active';
    CREATE INDEX listings_active_place_idx
      ON listings (country, lower(state), lower(city), created_at DESC, id DESC)
      WHERE status = 'active';
    CREATE INDEX listings_active_city_idx
      ON listings (lower(city), created_at DESC, id DESC) WHERE status = 'active';
    CREATE INDEX listings_active_year_idx ON listings (year) WHERE status = 'active';
    CREATE INDEX listings_active_price_idx ON listings (price) WHERE status = 'active';
    CREATE INDEX listings_active_text_idx ON listings
      USING gin ((title || ' ' || make || ' ' || model || ' ' || description) gin_trgm_ops)
      WHERE status = 'active';
    CREATE INDEX listings_user_idx ON listings (user_id, status, created_at DESC);

    CREATE TABLE listing_photos (
      id bigserial PRIMARY KEY,
      listing_id bigint NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
      position smallint NOT NULL CHECK (position BETWEEN 0 AND 9),
      url text NOT NULL CHECK (url LIKE '/%' AND url NOT LIKE '//%'),
      thumbnail_url text NOT NULL CHECK (thumbnail_url LIKE '/%' AND thumbnail_url NOT LIKE '//%'),
      storage_key text,
      thumbnail_key text,
      content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/svg+xml', 'image/webp')),
      width integer CHECK (width > 0),
      height integer CHECK (height > 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- Deferred so renumbering after a removal can pass through duplicate positions.
      UNIQUE (listing_id, position) DEFERRABLE INITIALLY DEFERRED
    );

    CREATE TABLE listing_favorites (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      listing_id bigint NOT NULL REFERENCES listings (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, listing_id)
    );
    CREATE INDEX listing_favorites_listing_idx ON listing_favorites (listing_id);
  `);
};

export const down: Migration = async ({ context }) => {
  // pg_trgm stays: other tables may come to use it, and dropping an extension is not ours to do.
  await context.sequelize.query(`
    DROP TABLE IF EXISTS listing_favorites;
    DROP TABLE IF EXISTS listing_photos;
    DROP TABLE IF EXISTS listings;
  `);
};
