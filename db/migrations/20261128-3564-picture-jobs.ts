import type { Migration } from "../migrator";

// Lot pictures and refund retries as jobs of their own (docs/decisions/3564).
//
// - Each lot with pictures still to fetch (pending, or claimed by a fetcher) gets one
//   fetch_lot_pictures job, keyed by the lot, due when its earliest picture was due; the claim
//   and backoff columns of lot_images go (the job holds the tries and the next run).
// - Each pending refund gets one retry_refund job, keyed by the refund, due five minutes after it
//   was recorded (as the old sweep waited) or now.
// - The waiting jobs of the old repeating kinds (the picture batch, the refund sweep) are removed.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    SELECT graphile_worker.add_job('fetch_lot_pictures', json_build_object('lotId', p.lot_id::text),
             run_at => greatest(p.due, now()), max_attempts => 8,
             job_key => 'lot-pictures:' || p.lot_id, priority => 5, job_key_mode => 'replace')
      FROM (SELECT lot_id,
                   min(CASE WHEN status = 'fetching' THEN now() ELSE next_attempt_at END) AS due
              FROM lot_images WHERE status IN ('pending', 'fetching')
             GROUP BY lot_id) p;

    SELECT graphile_worker.add_job('retry_refund', json_build_object('refundId', r.id::text),
             run_at => greatest(r.created_at + interval '5 minutes', now()), max_attempts => 8,
             job_key => 'retry_refund:' || r.id, priority => -5,
             job_key_mode => 'preserve_run_at')
      FROM payment_refunds r WHERE r.status = 'pending';

    SELECT graphile_worker.remove_job('fetch_lot_pictures');
    SELECT graphile_worker.remove_job('retry_refunds');

    UPDATE lot_images SET status = 'pending', claimed_until = NULL WHERE status = 'fetching';
    DROP INDEX IF EXISTS lot_images_due_idx;
    DROP INDEX IF EXISTS lot_images_stuck_idx;
    -- the check that a claimed row has a claim goes with claimed_until
    ALTER TABLE lot_images
      DROP COLUMN IF EXISTS claimed_until,
      DROP COLUMN IF EXISTS next_attempt_at,
      DROP COLUMN IF EXISTS attempts,
      DROP CONSTRAINT IF EXISTS lot_images_status_check,
      ADD CONSTRAINT lot_images_status_check CHECK (status IN
        ('pending', 'stored', 'expanded', 'failed', 'skipped'));
    CREATE INDEX IF NOT EXISTS lot_images_pending_idx ON lot_images (lot_id)
      WHERE status = 'pending';
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP INDEX IF EXISTS lot_images_pending_idx;
    ALTER TABLE lot_images
      DROP CONSTRAINT IF EXISTS lot_images_status_check,
      ADD CONSTRAINT lot_images_status_check CHECK (status IN
        ('pending', 'fetching', 'stored', 'expanded', 'failed', 'skipped')),
      ADD COLUMN IF NOT EXISTS attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      ADD COLUMN IF NOT EXISTS next_attempt_at timestamptz NOT NULL DEFAULT now(),
      ADD COLUMN IF NOT EXISTS claimed_until timestamptz,
      ADD CONSTRAINT lot_images_claim_check CHECK ((status = 'fetching') = (claimed_until IS NOT NULL));
    CREATE INDEX IF NOT EXISTS lot_images_due_idx ON lot_images (next_attempt_at, id)
      WHERE status = 'pending';
    CREATE INDEX IF NOT EXISTS lot_images_stuck_idx ON lot_images (claimed_until)
      WHERE status = 'fetching';

    -- the old code's schedules find the pending rows again
    DELETE FROM graphile_worker._private_jobs j USING graphile_worker._private_tasks t
     WHERE t.id = j.task_id AND t.identifier IN ('fetch_lot_pictures', 'retry_refund')
       AND j.locked_at IS NULL;
  `);
};
