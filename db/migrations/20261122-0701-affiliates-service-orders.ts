import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE affiliate_applications (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
      company_name text NOT NULL CHECK (length(btrim(company_name)) BETWEEN 1 AND 200),
      service_types text[] NOT NULL CHECK (
        cardinality(service_types) BETWEEN 1 AND 2
        AND service_types <@ ARRAY['shipping', 'export']::text[]),
      business_phone text NOT NULL CHECK (length(btrim(business_phone)) BETWEEN 1 AND 40),
      business_email text NOT NULL CHECK (length(business_email) BETWEEN 3 AND 254
        AND business_email LIKE '%_@_%'),
      service_areas text[] NOT NULL CHECK (cardinality(service_areas) BETWEEN 1 AND 50),
      license_document_url text CHECK (length(license_document_url) <= 500),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
      reviewed_by uuid REFERENCES users (id) ON DELETE SET NULL,
      reviewed_at timestamptz,
      rejection_reason text CHECK (length(rejection_reason) BETWEEN 1 AND 1000),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'pending') = (reviewed_at IS NULL)),
      CHECK ((status = 'rejected') = (rejection_reason IS NOT NULL))
    );
    CREATE INDEX affiliate_applications_status_idx
      ON affiliate_applications (status, created_at, id);

    CREATE TABLE service_orders (
      id bigserial PRIMARY KEY,
      service_type text NOT NULL CHECK (service_type IN ('shipping', 'export')),
      lot_id bigint REFERENCES lots (id) ON DELETE RESTRICT,
      purchase_id bigint REFERENCES purchases (id) ON DELETE RESTRICT,
      -- the buyer who asked for it (private: only the claimer and admins see who)
      requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      vehicle_label text NOT NULL CHECK (length(btrim(vehicle_label)) BETWEEN 1 AND 200),
      vehicle_type text CHECK (vehicle_type IN ('sedan', 'suv', 'truck')),
      pickup_city text NOT NULL CHECK (length(pickup_city) BETWEEN 1 AND 80),
      pickup_state char(2) NOT NULL CHECK (pickup_state ~ '^[A-Z]{2}$'),
      pickup_yard text CHECK (length(pickup_yard) <= 120),
      delivery_city text CHECK (length(delivery_city) BETWEEN 1 AND 80),
      delivery_state char(2) CHECK (delivery_state ~ '^[A-Z]{2}$'),
      export_port text CHECK (length(export_port) BETWEEN 1 AND 80),
      export_port_state char(2) CHECK (export_port_state ~ '^[A-Z]{2}$'),
      destination_country text CHECK (length(destination_country) BETWEEN 2 AND 80),
      distance_miles integer CHECK (distance_miles BETWEEN 1 AND 10000),
      payout numeric(12, 2) NOT NULL CHECK (payout > 0 AND payout <= 100000),
      status text NOT NULL DEFAULT 'open'
        CHECK (status IN ('open', 'claimed', 'in_progress', 'completed')),
      claimed_by uuid REFERENCES affiliate_applications (user_id) ON DELETE RESTRICT,
      claimed_at timestamptz,
      started_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (service_type <> 'shipping' OR (delivery_city IS NOT NULL AND delivery_state IS NOT NULL
        AND distance_miles IS NOT NULL AND export_port IS NULL AND destination_country IS NULL)),
      CHECK (service_type <> 'export' OR (export_port IS NOT NULL AND export_port_state IS NOT NULL
        AND destination_country IS NOT NULL AND delivery_city IS NULL AND delivery_state IS NULL)),
      CHECK ((status = 'open') = (claimed_by IS NULL)),
      CHECK ((status = 'open') = (claimed_at IS NULL)),
      CHECK ((status IN ('in_progress', 'completed')) = (started_at IS NOT NULL)),
      CHECK ((status = 'completed') = (completed_at IS NOT NULL)),
      CHECK (started_at IS NULL OR started_at >= claimed_at),
      CHECK (completed_at IS NULL OR completed_at >= started_at)
    );
    -- one live order per purchase and service type
    CREATE UNIQUE INDEX service_orders_purchase_type_key
      ON service_orders (purchase_id, service_type) WHERE purchase_id IS NOT NULL;
    CREATE INDEX service_orders_lot_idx ON service_orders (lot_id) WHERE lot_id IS NOT NULL;
    CREATE INDEX service_orders_open_idx ON service_orders (created_at DESC, id DESC)
      WHERE status = 'open';
    CREATE INDEX service_orders_open_type_idx ON service_orders (service_type, created_at DESC, id DESC)
      WHERE status = 'open';
    CREATE INDEX service_orders_open_state_idx ON service_orders (pickup_state, created_at DESC, id DESC)
      WHERE status = 'open';
    CREATE INDEX service_orders_open_vehicle_idx ON service_orders (vehicle_type, created_at DESC, id DESC)
      WHERE status = 'open';
    CREATE INDEX service_orders_claimed_by_idx ON service_orders (claimed_by, created_at DESC, id DESC)
      WHERE claimed_by IS NOT NULL;
    CREATE INDEX service_orders_requested_by_idx ON service_orders (requested_by)
      WHERE requested_by IS NOT NULL;
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TABLE IF EXISTS service_orders;
    DROP TABLE IF EXISTS affiliate_applications;
  `);
};
