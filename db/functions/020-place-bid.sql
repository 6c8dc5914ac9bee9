-- The bid rule: one bid is one call (docs/decisions/1101). Under the lot's row lock: the bidder's
-- checks, the funds check against deposit_exposure (010), the proxy resolution, the lot's new price,
-- the soft close and the outbid notice, in a single statement (its own transaction). The rules'
-- numbers (minimum deposit, increment, soft close) are passed in by
-- app/services/auctions/bidding.server.ts, which keeps the messages.
--
-- The leader rule (docs/decisions/2702): a leader never bids against themselves. A new bid from the
-- lot's current high bidder only raises their maximum, to the larger of its amount and its maximum;
-- the price, the bid count, the end (no soft-close extension), the history and what every other
-- bidder sees stay as they are. A new maximum that is not above the standing one is refused
-- ('not_higher', with the standing maximum in `minimum`). The raise is kept as a bids row marked
-- max_raise, so the resolution counts it among each bidder's typed rows (NOT automatic).
--
-- The funds check holds whole unpaid invoices, late fee included from the bid's time
-- (docs/decisions/3510). Bids reach it through place_bid_in_session (030), the one entry of the form
-- and of /api/bids (docs/decisions/3602); bench/ceilings.ts calls it directly.
CREATE OR REPLACE FUNCTION place_bid(
  p_lot bigint, p_user uuid, p_amount numeric, p_max numeric, p_is_proxy boolean,
  p_at timestamptz, p_min_deposit numeric, p_increment numeric, p_soft_close interval
) RETURNS TABLE (
  code text, bid_id bigint, outcome text, current_bid numeric, bid_count integer,
  ends_at timestamptz, minimum numeric
) LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    DECLARE
      lot record;
      bidder record;
      held numeric;
      placed_id bigint;
      leader record;
      runner_up numeric;
      price numeric;
      leader_typed numeric;
      automatic boolean;
      new_end timestamptz;
      new_count integer;
      new_max numeric := greatest(p_amount, p_max);
    BEGIN
      SELECT l.id, l.status, l.starts_at, l.ends_at, l.current_bid, l.high_bidder_id, l.high_max,
             l.bid_count, l.year, l.make, l.model
        INTO lot FROM lots l WHERE l.id = p_lot FOR UPDATE;
      IF NOT FOUND THEN RETURN QUERY SELECT 'not_found', NULL::bigint, NULL, NULL::numeric,
        NULL::integer, NULL::timestamptz, NULL::numeric; RETURN; END IF;
      -- NO KEY UPDATE serializes this user's bids and deposit changes but lets other bids insert
      -- rows that merely reference the user (FK key-share locks) without deadlocking.
      SELECT u.verified, u.deposit INTO bidder FROM users u WHERE u.id = p_user FOR NO KEY UPDATE;
      IF NOT FOUND THEN code := 'unauthorized';
      ELSIF NOT bidder.verified THEN code := 'verification';
      ELSIF bidder.deposit < p_min_deposit THEN code := 'deposit';
      ELSIF lot.status <> 'active' OR p_at >= lot.ends_at THEN code := 'ended';
      ELSIF p_amount < lot.current_bid + p_increment THEN code := 'minimum';
      ELSIF p_is_proxy AND p_max <= p_amount THEN code := 'proxy';
      END IF;
      IF code IS NOT NULL THEN
        RETURN QUERY SELECT code, NULL::bigint, NULL, NULL::numeric, NULL::integer,
          NULL::timestamptz, lot.current_bid + p_increment;
        RETURN;
      END IF;
      IF lot.high_bidder_id = p_user AND new_max <= lot.high_max THEN
        RETURN QUERY SELECT 'not_higher', NULL::bigint, NULL, NULL::numeric, NULL::integer,
          NULL::timestamptz, lot.high_max;
        RETURN;
      END IF;

      -- what the deposit already holds elsewhere (this lot's own hold is not counted)
      SELECT e.total INTO held FROM deposit_exposure(p_user, p_lot, p_at) e;
      IF p_amount > greatest(0, bidder.deposit - held) OR p_max > greatest(0, bidder.deposit - held)
      THEN
        RETURN QUERY SELECT 'funds', NULL::bigint, NULL, NULL::numeric, NULL::integer,
          NULL::timestamptz, NULL::numeric;
        RETURN;
      END IF;

      -- the leader rule: only the maximum moves; no price, count, end or event changes
      IF lot.high_bidder_id = p_user THEN
        INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, automatic, max_raise,
                          created_at)
        VALUES (p_lot, p_user, p_amount, new_max, p_is_proxy, false, true, p_at)
        RETURNING id INTO placed_id;
        UPDATE lots l SET high_max = new_max, updated_at = now() WHERE l.id = p_lot;
        RETURN QUERY SELECT 'ok', placed_id, 'raised', lot.current_bid, lot.bid_count,
          lot.ends_at, NULL::numeric;
        RETURN;
      END IF;

      INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, automatic, created_at)
      VALUES (p_lot, p_user, p_amount, p_max, p_is_proxy, false, p_at) RETURNING id INTO placed_id;

      -- each bidder's standing maximum is their highest typed bid or raise (the earliest at it
      -- breaks ties): the leader is the first such row, the runner-up the first by anyone else
      SELECT b.user_id, b.max_amount INTO leader FROM bids b
       WHERE b.lot_id = p_lot AND NOT b.automatic ORDER BY b.max_amount DESC, b.id ASC LIMIT 1;
      SELECT b.max_amount INTO runner_up FROM bids b
       WHERE b.lot_id = p_lot AND NOT b.automatic AND b.user_id <> leader.user_id
       ORDER BY b.max_amount DESC, b.id ASC LIMIT 1;

      leader_typed := CASE WHEN leader.user_id = p_user THEN p_amount END;
      price := greatest(
        CASE WHEN runner_up IS NULL THEN 0 ELSE least(leader.max_amount, runner_up + p_increment) END,
        COALESCE(leader_typed, 0),
        lot.current_bid);
      -- the engine raises for the leader's standing proxy when the price passes what they typed
      automatic := CASE WHEN leader_typed IS NULL THEN price > lot.current_bid
                        ELSE price > leader_typed END;
      new_end := CASE WHEN p_at >= lot.starts_at AND lot.ends_at - p_at <= p_soft_close
                      THEN p_at + p_soft_close ELSE lot.ends_at END;

      IF automatic THEN
        INSERT INTO bids (lot_id, user_id, amount, max_amount, is_proxy, automatic, created_at)
        VALUES (p_lot, leader.user_id, price, leader.max_amount, true, true, p_at);
      END IF;
      UPDATE lots l SET current_bid = price, high_bidder_id = leader.user_id,
             high_max = leader.max_amount,
             bid_count = l.bid_count + 1 + (CASE WHEN automatic THEN 1 ELSE 0 END),
             ends_at = new_end, updated_at = now()
       WHERE l.id = p_lot RETURNING l.bid_count INTO new_count;

      IF lot.high_bidder_id IS NOT NULL AND lot.high_bidder_id <> leader.user_id THEN
        INSERT INTO notifications (user_id, kind, title, body, link, created_at, updated_at)
        VALUES (lot.high_bidder_id, 'outbid', 'You were outbid',
                lot.year || ' ' || lot.make || ' ' || lot.model || ': the current bid is now $'
                  || to_char(price, 'FM999,999,999,990.00') || '.',
                '/auctions/' || p_lot, now(), now());
      END IF;

      RETURN QUERY SELECT 'ok', placed_id,
        CASE WHEN leader.user_id = p_user THEN 'leading' ELSE 'outbid' END,
        price, new_count, new_end, NULL::numeric;
    END $$;
