import type { Migration } from "../migrator";

// Live updates (docs/decisions/1801-live-updates-by-server-sent-events.md): every change of a
// lot's price, bid count, leader, end or status writes one row to lot_events and sends its id and
// contents on the lot_events channel, in the same transaction as the change (a trigger, so the
// bid function and the closer need not know). The app's processes LISTEN and fan the events out
// to their open streams; the rows let a reconnecting browser catch up from its Last-Event-ID.
// Housekeeping prunes rows older than an hour.
//
// The function and trigger below are this migration's own frozen copy, made with their table; the
// definitions in force are db/functions/040-lot-event.sql, applied after the migrations
// (docs/decisions/3601).
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE lot_events (
      id bigserial PRIMARY KEY,
      lot_id bigint NOT NULL,
      current_bid numeric(12, 2) NOT NULL,
      bid_count integer NOT NULL,
      ends_at timestamptz NOT NULL,
      status text NOT NULL,
      high_bidder_id uuid,
      previous_bidder_id uuid,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX lot_events_lot_idx ON lot_events (lot_id, id);
    -- pruning by age: a BRIN index costs next to nothing per insert (rows arrive in time order)
    CREATE INDEX lot_events_created_idx ON lot_events USING brin (created_at);

    CREATE FUNCTION lot_event() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      event_id bigint;
    BEGIN
      INSERT INTO lot_events (lot_id, current_bid, bid_count, ends_at, status, high_bidder_id,
                              previous_bidder_id)
      VALUES (NEW.id, NEW.current_bid, NEW.bid_count, NEW.ends_at, NEW.status,
              NEW.high_bidder_id, OLD.high_bidder_id)
      RETURNING id INTO event_id;
      PERFORM pg_notify('lot_events', json_build_object(
        'id', event_id::text, 'lot', NEW.id::text, 'price', NEW.current_bid::text,
        'count', NEW.bid_count, 'endsAt', NEW.ends_at, 'status', NEW.status,
        'leader', NEW.high_bidder_id, 'previous', OLD.high_bidder_id)::text);
      RETURN NULL;
    END $$;

    CREATE TRIGGER lots_live_event
      AFTER UPDATE OF current_bid, bid_count, ends_at, status, high_bidder_id ON lots
      FOR EACH ROW
      WHEN (OLD.current_bid IS DISTINCT FROM NEW.current_bid
         OR OLD.bid_count IS DISTINCT FROM NEW.bid_count
         OR OLD.ends_at IS DISTINCT FROM NEW.ends_at
         OR OLD.status IS DISTINCT FROM NEW.status
         OR OLD.high_bidder_id IS DISTINCT FROM NEW.high_bidder_id)
      EXECUTE FUNCTION lot_event();
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TRIGGER IF EXISTS lots_live_event ON lots;
    DROP FUNCTION IF EXISTS lot_event();
    DROP TABLE IF EXISTS lot_events;
  `);
};
