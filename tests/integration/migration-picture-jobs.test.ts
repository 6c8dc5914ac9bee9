// Migration 20261128-3564 (docs/decisions/3564): what was waiting in the old picture queue and
// the pending refunds become jobs of their own; the old repeating jobs and the picture queue's
// claim and backoff columns go. This file's database is taken back before the migration, given
// rows as the old code wrote them, and migrated again.
import { randomUUID } from "node:crypto";
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { migrator } from "../../db/migrator";
import { createTestUser } from "../support/auth";
import { clearJobs, queuedJobs } from "../support/jobs";
import { createTestLot } from "../support/lots";

const MIGRATION = "20261128-3564-picture-jobs";

const select = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });

async function columnsOf(table: string) {
  const rows = await select<{ column_name: string }>(
    "SELECT column_name FROM information_schema.columns WHERE table_name = :table",
    { table },
  );
  return rows.map((row) => row.column_name);
}

describe("migration 3564: picture and refund jobs", () => {
  it("gives each lot with pending pictures and each pending refund a job, and drops the old queue's columns", async () => {
    const umzug = migrator(sequelize);
    expect((await umzug.executed()).map((m) => m.name)).toContain(MIGRATION);
    // back to just before it (and any later migration with it; all are run again below)
    await umzug.down({ to: MIGRATION });
    expect(await columnsOf("lot_images")).toEqual(
      expect.arrayContaining(["attempts", "next_attempt_at", "claimed_until"]),
    );
    await clearJobs();

    // the old picture queue: a lot waiting for its retry in 10 minutes, one claimed by a fetcher
    // mid-download, one with nothing left to fetch
    const [waiting, claimed, done] = [
      await createTestLot(),
      await createTestLot(),
      await createTestLot(),
    ];
    await sequelize.query(
      `INSERT INTO lot_images (lot_id, source, position, source_url, status, attempts,
                               next_attempt_at, claimed_until, error)
       VALUES (:waiting, 'image_url', 0, 'https://cs.copart.com/a.jpg', 'pending', 2,
               now() + interval '10 minutes', NULL, 'HTTP 503'),
              (:waiting, 'image_thumbnail', 0, 'https://cs.copart.com/a_thb.jpg', 'pending', 0,
               now(), NULL, NULL),
              (:claimed, 'image_url', 0, 'https://cs.copart.com/b.jpg', 'fetching', 1, now(),
               now() + interval '2 minutes', NULL),
              (:done, 'image_url', 0, 'https://cs.copart.com/c.jpg', 'failed', 4, now(), NULL,
               'HTTP 404')`,
      { replacements: { waiting: waiting.id, claimed: claimed.id, done: done.id } },
    );
    // the old repeating jobs
    await sequelize.query(
      `SELECT graphile_worker.add_job('fetch_lot_pictures', '{}'::json, job_key => 'fetch_lot_pictures',
                                      max_attempts => 1),
              graphile_worker.add_job('retry_refunds', '{}'::json, job_key => 'retry_refunds',
                                      max_attempts => 1)`,
    );
    // refunds: one pending (an unclear answer a minute ago), one completed
    const user = await createTestUser();
    const orderId = randomUUID();
    await sequelize.query(
      `INSERT INTO payment_orders (id, user_id, purpose, provider, provider_order_id,
                                   idempotency_key, description, amount, status,
                                   captured_amount, capture_id, captured_at, refunded_amount)
       VALUES (:orderId, :userId, 'deposit', 'test', :providerOrderId, :key, 'Deposit', 500,
               'captured', 500, :captureId, now(), 300)`,
      {
        replacements: {
          orderId,
          userId: user.id,
          providerOrderId: `TEST-${orderId.slice(0, 8)}`,
          key: `deposit-${orderId}`,
          captureId: `CAP-${orderId.slice(0, 8)}`,
        },
      },
    );
    const pendingId = randomUUID();
    const completedId = randomUUID();
    await sequelize.query(
      `INSERT INTO payment_refunds (id, payment_order_id, user_id, amount, status, created_at)
       VALUES (:pendingId, :orderId, :userId, 200, 'pending', now() - interval '1 minute'),
              (:completedId, :orderId, :userId, 100, 'completed', now() - interval '1 hour')`,
      { replacements: { pendingId, completedId, orderId, userId: user.id } },
    );

    await umzug.up();
    expect(await umzug.pending()).toEqual([]);

    const pictures = await queuedJobs("fetch_lot_pictures");
    expect(pictures.map((job) => job.key).sort()).toEqual(
      [`lot-pictures:${waiting.id}`, `lot-pictures:${claimed.id}`].sort(),
    );
    const waitingJob = pictures.find((job) => job.key === `lot-pictures:${waiting.id}`)!;
    expect(waitingJob).toMatchObject({
      payload: { lotId: String(waiting.id) },
      attempts: 0,
      max_attempts: 8,
      priority: 5,
    });
    // due when its earliest picture was (the thumbnail, now), not after the retry's wait
    expect(new Date(waitingJob.run_at).getTime()).toBeLessThan(Date.now() + 60_000);
    const refunds = await queuedJobs("retry_refund");
    expect(refunds).toMatchObject([
      { key: `retry_refund:${pendingId}`, payload: { refundId: pendingId }, max_attempts: 8 },
    ]);
    // five minutes after it was recorded, as the old sweep waited
    const due = new Date(refunds[0].run_at).getTime();
    expect(due).toBeGreaterThan(Date.now() + 3 * 60_000);
    expect(due).toBeLessThan(Date.now() + 5 * 60_000);
    // the old repeating jobs are gone
    expect((await queuedJobs()).map((job) => job.key)).not.toEqual(
      expect.arrayContaining(["fetch_lot_pictures"]),
    );
    expect(await queuedJobs("retry_refunds")).toEqual([]);

    // the claim is released, and the columns of the old queue are gone
    const rows = await select<{ lot_id: string; status: string }>(
      "SELECT lot_id::text, status FROM lot_images WHERE lot_id IN (:ids) ORDER BY lot_id, id",
      { ids: [waiting.id, claimed.id, done.id] },
    );
    expect(rows.map((row) => row.status)).toEqual(["pending", "pending", "pending", "failed"]);
    const columns = await columnsOf("lot_images");
    for (const gone of ["attempts", "next_attempt_at", "claimed_until"])
      expect(columns).not.toContain(gone);
    await expect(
      sequelize.query("UPDATE lot_images SET status = 'fetching' WHERE lot_id = :id", {
        replacements: { id: claimed.id },
      }),
    ).rejects.toThrow(/lot_images_status_check/);
  });
});
