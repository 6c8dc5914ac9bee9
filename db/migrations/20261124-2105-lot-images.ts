import type { Migration } from "../migrator";

export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    -- A lot's pictures as its feed names them, and what became of each: the import records the
    -- URLs, a worker downloads, checks and stores them (docs/decisions/2105-lot-pictures.md).
    CREATE TABLE lot_images (
      id bigserial PRIMARY KEY,
      lot_id bigint NOT NULL REFERENCES lots (id) ON DELETE CASCADE,
      -- where the URL came from: the feed's "Image URL" column (a picture, or at Copart the list
      -- of a lot's pictures), its "Image Thumbnail" column (fetched only when nothing else gives
      -- the lot a picture), or that list
      source text NOT NULL CHECK (source IN ('image_url', 'image_thumbnail', 'catalogue')),
      position integer NOT NULL CHECK (position BETWEEN 0 AND 99),
      source_url text NOT NULL CHECK (length(source_url) BETWEEN 1 AND 2000),
      -- expanded: the URL answered with a list of pictures, recorded as 'catalogue' rows;
      -- skipped: a feed thumbnail not needed because the lot has other pictures
      status text NOT NULL DEFAULT 'pending' CHECK (status IN
        ('pending', 'fetching', 'stored', 'expanded', 'failed', 'skipped')),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      claimed_until timestamptz,
      storage_key text CHECK (length(storage_key) <= 256),
      thumb_key text CHECK (length(thumb_key) <= 256),
      content_type text CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp')),
      width integer CHECK (width > 0),
      height integer CHECK (height > 0),
      error text CHECK (length(error) <= 500),
      stored_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (lot_id, source, position),
      CHECK ((status = 'stored') = (storage_key IS NOT NULL AND thumb_key IS NOT NULL
                                    AND content_type IS NOT NULL AND stored_at IS NOT NULL)),
      CHECK ((status = 'fetching') = (claimed_until IS NOT NULL))
    );
    CREATE INDEX lot_images_due_idx ON lot_images (next_attempt_at, id) WHERE status = 'pending';
    CREATE INDEX lot_images_stuck_idx ON lot_images (claimed_until) WHERE status = 'fetching';
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`DROP TABLE IF EXISTS lot_images;`);
};
