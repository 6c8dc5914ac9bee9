import type { Migration } from "../migrator";

// One row per open live stream, held by the server process that serves it, so the per-person
// cap holds across processes and machines (docs/decisions/3008). A process renews its leases
// while their streams are open; a machine that dies leaves leases that simply run out.
// take_stream_lease below is this migration's own frozen copy; the definition in force is
// db/functions/080-take-stream-lease.sql, applied after the migrations (docs/decisions/3601).
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    CREATE TABLE live_stream_leases (
      id bigserial PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      holder text NOT NULL CHECK (length(holder) BETWEEN 1 AND 200),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX live_stream_leases_user_idx ON live_stream_leases (user_id, expires_at);
    CREATE INDEX live_stream_leases_holder_idx ON live_stream_leases (holder);

    -- A lease for one more stream of this person, or NULL when they hold max_streams unexpired
    -- ones. Leases being given back (ids in releasing) and run-out ones are dropped first. The
    -- person's advisory lock makes the count and the insert one step across every machine.
    CREATE FUNCTION take_stream_lease(p_user uuid, p_holder text, p_max integer,
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
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP FUNCTION IF EXISTS take_stream_lease(uuid, text, integer, interval, bigint[]);
    DROP TABLE IF EXISTS live_stream_leases;
  `);
};
