-- What a deposit holds ("exposure"), docs/decisions/3510: the user's maxima on open lots they lead
-- (but the excluded one) plus the WHOLE total of each unpaid invoice: the winning bid, every fee
-- frozen on it, and the late fee once the invoice is past due at `p_at` (the caller's clock: the
-- bid's time in place_bid, the server's clock in the app; now() by default).
--
-- place_bid calls it for the funds check and app/services/auctions/buying-power.server.ts for every
-- buying-power figure, so the two cannot drift apart. A set-returning LANGUAGE sql STABLE function
-- (not STRICT, no SET, not SECURITY DEFINER): PostgreSQL inlines it into the calling query like a
-- subquery, so a bid costs the same plan and round trip as with the sums written in place
-- (docs/decisions/1101). Only this three-argument form may exist: a second overload would make
-- every two-argument call ambiguous (migration 20261128-3510 dropped the old one).
CREATE OR REPLACE FUNCTION deposit_exposure(
  p_user uuid, p_exclude_lot bigint DEFAULT NULL, p_at timestamptz DEFAULT now()
) RETURNS TABLE (total numeric) LANGUAGE sql STABLE AS $$
      SELECT COALESCE((SELECT sum(l.high_max) FROM lots l
                        WHERE l.status = 'active' AND l.high_bidder_id = p_user
                          AND (p_exclude_lot IS NULL OR l.id <> p_exclude_lot)), 0)
           + COALESCE((SELECT sum(p.amount + p.buyer_fee + p.internet_fee + p.gate_fee + p.broker_fee
                                      + CASE WHEN p.due_at IS NOT NULL AND p_at > p.due_at
                                             THEN COALESCE((SELECT t.late_fee_cents FROM purchase_terms t
                                                             WHERE t.id), 0) / 100.0
                                             ELSE 0 END)
                        FROM purchases p
                        WHERE p.user_id = p_user AND p.status = 'pending'), 0)
$$;
