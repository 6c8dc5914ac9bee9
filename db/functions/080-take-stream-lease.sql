-- One row per open live stream, held by the server process that serves it, so the per-person cap
-- holds across processes and machines (docs/decisions/3008).
--
-- A lease for one more stream of this person, or NULL when they hold p_max unexpired ones. Leases
-- being given back (ids in p_releasing) and run-out ones are dropped first. The person's advisory
-- lock makes the count and the insert one step across every machine.
CREATE OR REPLACE FUNCTION take_stream_lease(p_user uuid, p_holder text, p_max integer,
                                             p_ttl interval, p_releasing bigint[])
RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      held integer;
      lease bigint;
    BEGIN
      PERFORM pg_advisory_xact_lock(3001, hashtext(p_user::text));
      DELETE FROM live_stream_leases
       WHERE user_id = p_user AND (expires_at < now() OR id = ANY(p_releasing));
      SELECT count(*) INTO held FROM live_stream_leases WHERE user_id = p_user;
      IF held >= p_max THEN
        RETURN NULL;
      END IF;
      INSERT INTO live_stream_leases (user_id, holder, expires_at)
      VALUES (p_user, p_holder, now() + p_ttl) RETURNING id INTO lease;
      RETURN lease;
    END $$;
