-- Every open lot has one close job at its end time, keyed by the lot (docs/decisions/3561). This
-- row trigger moves it (the key's job is replaced) when an update moves the lot's end (a soft
-- close) or changes its status, inside the transaction that wrote the lot. Inserted lots get
-- theirs from the statement trigger in 060 (docs/decisions/3568), so this one fires on updates
-- only; its function still answers an INSERT as it always did.
CREATE OR REPLACE FUNCTION lots_close_job() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.status <> 'active' OR NEW.ends_at IS NULL THEN RETURN NULL; END IF;
      IF TG_OP = 'UPDATE' AND OLD.status = NEW.status AND OLD.ends_at = NEW.ends_at THEN
        RETURN NULL;
      END IF;
      PERFORM graphile_worker.add_job('close_lot', json_build_object('lotId', NEW.id::text),
        run_at => NEW.ends_at, max_attempts => 25, job_key => 'close_lot:' || NEW.id,
        priority => -10, job_key_mode => 'replace');
      RETURN NULL;
    END $$;

DROP TRIGGER IF EXISTS lots_close_job ON lots;
CREATE TRIGGER lots_close_job AFTER UPDATE OF ends_at, status ON lots
  FOR EACH ROW EXECUTE FUNCTION lots_close_job();
