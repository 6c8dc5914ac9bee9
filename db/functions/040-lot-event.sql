-- Live updates (docs/decisions/1801-live-updates-by-server-sent-events.md): every change of a
-- lot's price, bid count, leader, end or status writes one row to lot_events and sends its id and
-- contents on the lot_events channel, in the same transaction as the change (a trigger, so the
-- bid function and the closer need not know). The app's processes LISTEN and fan the events out
-- to their open streams; the rows let a reconnecting browser catch up from its Last-Event-ID.
CREATE OR REPLACE FUNCTION lot_event() RETURNS trigger LANGUAGE plpgsql AS $$
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

DROP TRIGGER IF EXISTS lots_live_event ON lots;
CREATE TRIGGER lots_live_event
  AFTER UPDATE OF current_bid, bid_count, ends_at, status, high_bidder_id ON lots
  FOR EACH ROW
  WHEN (OLD.current_bid IS DISTINCT FROM NEW.current_bid
     OR OLD.bid_count IS DISTINCT FROM NEW.bid_count
     OR OLD.ends_at IS DISTINCT FROM NEW.ends_at
     OR OLD.status IS DISTINCT FROM NEW.status
     OR OLD.high_bidder_id IS DISTINCT FROM NEW.high_bidder_id)
  EXECUTE FUNCTION lot_event();
