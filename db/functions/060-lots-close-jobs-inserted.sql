-- Lots inserted together get their close jobs in one call (docs/decisions/3568): a statement
-- trigger hands every new open lot to graphile_worker.add_jobs at once, so a bulk import sends one
-- NOTIFY per statement, not one per lot. The same keys, run times, priority and tries as the row
-- trigger in 050.
CREATE OR REPLACE FUNCTION lots_close_jobs_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      specs graphile_worker.job_spec[];
    BEGIN
      SELECT array_agg(ROW('close_lot', json_build_object('lotId', id::text), NULL, ends_at, 25,
                           'close_lot:' || id, -10, NULL)::graphile_worker.job_spec)
        INTO specs
        FROM new_lots WHERE status = 'active' AND ends_at IS NOT NULL;
      IF specs IS NOT NULL THEN PERFORM graphile_worker.add_jobs(specs); END IF;
      RETURN NULL;
    END $$;

DROP TRIGGER IF EXISTS lots_close_jobs_inserted ON lots;
CREATE TRIGGER lots_close_jobs_inserted AFTER INSERT ON lots
  REFERENCING NEW TABLE AS new_lots
  FOR EACH STATEMENT EXECUTE FUNCTION lots_close_jobs_inserted();
