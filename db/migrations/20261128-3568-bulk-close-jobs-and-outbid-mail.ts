import type { Migration } from "../migrator";

// Two writes that queue jobs, made cheaper and quicker (docs/decisions/3568):
//
// - Lots inserted together get their close jobs in one call: a statement trigger hands every new
//   open lot to graphile_worker.add_jobs at once. A row trigger called add_job per lot, and each
//   call sends its own NOTIFY, so a bulk import of 20,000 lots took 38 s instead of 1.5 s (the
//   queue's wake-ups, not the jobs, were the cost). An update that moves a lot's end or status
//   keeps the row trigger: it fires only when those columns are written.
// - A bid that outbids someone queues an outbid_mail job in the bid's own statement (the
//   notification's insert), keyed by the lot so a bidding war keeps one waiting job per lot. The
//   outbid e-mail no longer waits for the 15-second notices run, which stays as the safety net.
//
// The triggers and functions below are this migration's own frozen copy; the definitions in force
// are db/functions/050 to 070, applied after the migrations (docs/decisions/3601).
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TRIGGER lots_close_job ON lots;
    CREATE TRIGGER lots_close_job AFTER UPDATE OF ends_at, status ON lots
      FOR EACH ROW EXECUTE FUNCTION lots_close_job();

    CREATE FUNCTION lots_close_jobs_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
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
    CREATE TRIGGER lots_close_jobs_inserted AFTER INSERT ON lots
      REFERENCING NEW TABLE AS new_lots
      FOR EACH STATEMENT EXECUTE FUNCTION lots_close_jobs_inserted();

    CREATE FUNCTION notifications_outbid_mail_job() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM graphile_worker.add_job('outbid_mail', '{}'::json, max_attempts => 5,
        job_key => 'outbid_mail:' || coalesce(substring(NEW.link FROM '^/auctions/([0-9]{1,18})$'), ''),
        priority => -5, job_key_mode => 'preserve_run_at');
      RETURN NULL;
    END $$;
    CREATE TRIGGER notifications_outbid_mail_job AFTER INSERT ON notifications
      FOR EACH ROW WHEN (NEW.kind = 'outbid')
      EXECUTE FUNCTION notifications_outbid_mail_job();
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP TRIGGER notifications_outbid_mail_job ON notifications;
    DROP FUNCTION notifications_outbid_mail_job();
    DROP TRIGGER lots_close_jobs_inserted ON lots;
    DROP FUNCTION lots_close_jobs_inserted();
    DROP TRIGGER lots_close_job ON lots;
    CREATE TRIGGER lots_close_job AFTER INSERT OR UPDATE OF ends_at, status ON lots
      FOR EACH ROW EXECUTE FUNCTION lots_close_job();
    DELETE FROM graphile_worker._private_jobs j
     USING graphile_worker._private_tasks t
     WHERE j.task_id = t.id AND t.identifier = 'outbid_mail';
  `);
};
