-- A bid of a signed-in request, whole, in one statement (its own transaction): the one way the lot
-- page's form and /api/bids place a bid (docs/decisions/1903, 3602), in the same order with the
-- same answers as the separate calls it replaced:
--   1. the session (by the hash of its token, unexpired) gives the bidder, else 'signed_out';
--   2. the bid limiter's counter is moved exactly as rate-limiter-flexible moves it (its table,
--      its key `prefix:userId`, its upsert: a spent window restarts, a refused use still counts),
--      and a count past the limit answers 'rate_limited' with the milliseconds left;
--   3. place_bid (020) answers the rest.
-- The counter's row is taken before the lot's: every caller takes rate row, then lot, then user,
-- so the order is the same everywhere and cannot deadlock.
CREATE OR REPLACE FUNCTION place_bid_in_session(
  p_session text, p_rate_prefix text, p_rate_points integer, p_rate_ms bigint,
  p_lot bigint, p_amount numeric, p_max numeric, p_is_proxy boolean,
  p_at timestamptz, p_min_deposit numeric, p_increment numeric, p_soft_close interval
) RETURNS TABLE (
  code text, bid_id bigint, outcome text, current_bid numeric, bid_count integer,
  ends_at timestamptz, minimum numeric, user_id uuid, retry_ms bigint
) LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    DECLARE
      bidder uuid;
      now_ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
      used integer;
      window_end bigint;
    BEGIN
      SELECT s.user_id INTO bidder FROM sessions s WHERE s.id = p_session AND s.expires_at > now();
      IF bidder IS NULL THEN
        RETURN QUERY SELECT 'signed_out', NULL::bigint, NULL, NULL::numeric, NULL::integer,
          NULL::timestamptz, NULL::numeric, NULL::uuid, NULL::bigint;
        RETURN;
      END IF;

      INSERT INTO rate_limits AS r (key, points, expire)
      VALUES (p_rate_prefix || ':' || bidder, 1, now_ms + p_rate_ms)
      ON CONFLICT (key) DO UPDATE SET
        points = CASE WHEN r.expire <= now_ms THEN 1 ELSE r.points + 1 END,
        expire = CASE WHEN r.expire <= now_ms THEN now_ms + p_rate_ms ELSE r.expire END
      RETURNING r.points, r.expire INTO used, window_end;
      IF used > p_rate_points THEN
        RETURN QUERY SELECT 'rate_limited', NULL::bigint, NULL, NULL::numeric, NULL::integer,
          NULL::timestamptz, NULL::numeric, bidder, greatest(window_end - now_ms, 0);
        RETURN;
      END IF;

      RETURN QUERY SELECT b.code, b.bid_id, b.outcome, b.current_bid, b.bid_count, b.ends_at,
          b.minimum, bidder, NULL::bigint
        FROM place_bid(p_lot, bidder, p_amount, p_max, p_is_proxy, p_at, p_min_deposit,
                       p_increment, p_soft_close) b;
    END $$;
