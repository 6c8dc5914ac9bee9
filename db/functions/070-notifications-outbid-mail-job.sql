-- A bid that outbids someone queues an outbid_mail job in the bid's own statement (the
-- notification's insert by place_bid), keyed by the lot so a bidding war keeps one waiting job per
-- lot; a bid that rolls back queues nothing (docs/decisions/3568). The 15-second notices run stays
-- as the safety net.
CREATE OR REPLACE FUNCTION notifications_outbid_mail_job() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM graphile_worker.add_job('outbid_mail', '{}'::json, max_attempts => 5,
        job_key => 'outbid_mail:' || coalesce(substring(NEW.link FROM '^/auctions/([0-9]{1,18})$'), ''),
        priority => -5, job_key_mode => 'preserve_run_at');
      RETURN NULL;
    END $$;

DROP TRIGGER IF EXISTS notifications_outbid_mail_job ON notifications;
CREATE TRIGGER notifications_outbid_mail_job AFTER INSERT ON notifications
  FOR EACH ROW WHEN (NEW.kind = 'outbid')
  EXECUTE FUNCTION notifications_outbid_mail_job();
