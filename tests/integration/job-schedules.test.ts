// The background kinds on the queue (docs/decisions/3561, 3564): every periodic kind has a
// schedule, and one that repeats keeps a single waiting job however often it is asked for.
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { addJob } from "~/platform/jobs/queue.server";
import { placeBid } from "../support/bids";
import { createTestUser } from "../support/auth";
import { FAST_REPEAT_MS, jobHandlers, schedules } from "~/platform/jobs/tasks.server";
import { clearJobs, queuedJobs, runJobs } from "../support/jobs";
import { createTestLot } from "../support/lots";

describe("background schedules", () => {
  it("schedule every periodic kind, and only kinds a worker can run", () => {
    const kinds = Object.keys(jobHandlers());
    const scheduled = schedules.map((item) => item.task);
    // a lot's close, an e-mail, a lot's pictures and a refund's retry are queued by the writes
    // that need them, not by the clock (docs/decisions/3561, 3564, 3568)
    const queuedByWrites = [
      "close_lot",
      "send_mail",
      "fetch_lot_pictures",
      "retry_refund",
      "outbid_mail",
    ];
    expect(new Set(scheduled)).toEqual(
      new Set(kinds.filter((kind) => !queuedByWrites.includes(kind))),
    );
    // the refund sweep is only a safety net: hourly
    expect(schedules.find((item) => item.task === "sweep_refunds")?.match).toBe("17 * * * *");
    // one waiting job per kind: a slow run is never piled on
    for (const item of schedules) expect(item.options?.jobKey).toBe(item.task);
  });

  it("keep one waiting job of a repeating kind, due again after its interval", async () => {
    await clearJobs();
    await addJob("notices", {}, { jobKey: "notices", jobKeyMode: "preserve_run_at" });
    await addJob("notices", {}, { jobKey: "notices", jobKeyMode: "preserve_run_at" });
    expect(await queuedJobs("notices")).toHaveLength(1);
    const before = Date.now();
    await runJobs();
    const after = Date.now();
    const waiting = await queuedJobs("notices");
    expect(waiting).toHaveLength(1);
    // due FAST_REPEAT_MS after its run, which was between `before` and `after` however long it
    // took (a second either way for the database's clock against ours)
    const due = new Date(waiting[0].run_at).getTime();
    expect(due).toBeGreaterThan(before + FAST_REPEAT_MS - 1_000);
    expect(due).toBeLessThan(after + FAST_REPEAT_MS + 1_000);
  });
});

describe("a lot's close job", () => {
  const closeJobs = async (lotId: string | number) =>
    (await queuedJobs("close_lot")).filter((job) => job.key === `close_lot:${lotId}`);

  it("is queued with the lot, in its transaction: a rolled-back write queues nothing", async () => {
    await clearJobs();
    let rolledBackId: string | number | null = null;
    await expect(
      sequelize.transaction(async (transaction) => {
        const [row] = await sequelize.query<{ id: string }>(
          `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
                             location_state, primary_damage, title_state, odometer,
                             estimated_value, starts_at, ends_at)
           VALUES ('copart', 'ROLLBACK1', '1FTEW1EP5JK000001', 2018, 'Ford', 'F-150', 'Dallas',
                   'TX', 'FRONT END', 'TX', 1000, 1000, now(), now() + interval '1 hour')
           RETURNING id::text AS id`,
          { type: QueryTypes.SELECT, transaction },
        );
        rolledBackId = row.id;
        throw new Error("the import failed");
      }),
    ).rejects.toThrow("the import failed");
    expect(rolledBackId).not.toBeNull();
    expect(await closeJobs(rolledBackId!)).toHaveLength(0);

    const lot = await createTestLot();
    const [job] = await closeJobs(lot.id);
    expect(new Date(job.run_at).getTime()).toBe(new Date(lot.endsAt).getTime());
  });

  it("moves with the end when a soft close extends it: still one job, due at the new end", async () => {
    await clearJobs();
    const bidder = await createTestUser({ verified: true, deposit: "5000.00" });
    const lot = await createTestLot({ endsAt: new Date(Date.now() + 20_000) });
    await placeBid(bidder.id, { lotId: lot.id, amount: "300", isProxy: false });
    const [{ ends_at: endsAt }] = await sequelize.query<{ ends_at: Date }>(
      "SELECT ends_at FROM lots WHERE id = :id",
      { replacements: { id: lot.id }, type: QueryTypes.SELECT },
    );
    // the bid in the last seconds extended the lot
    expect(new Date(endsAt).getTime()).toBeGreaterThan(new Date(lot.endsAt).getTime());
    const jobs = await closeJobs(lot.id);
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0].run_at).getTime()).toBe(new Date(endsAt).getTime());
  });
});

describe("lots inserted together (record 3568)", () => {
  it("get every open lot's close job from the one statement, at its end", async () => {
    await clearJobs();
    const rows = await sequelize.query<{ id: string; ends_at: Date; status: string }>(
      `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
                         location_state, primary_damage, title_state, odometer, estimated_value,
                         starts_at, ends_at, status)
       SELECT 'copart', 'BULK' || g || '-' || floor(random() * 1e9)::bigint,
              '1FTEW1EP5JK000001', 2018, 'Ford', 'F-150', 'Dallas', 'TX', 'FRONT END', 'TX',
              1000, 1000, now(), now() + g * interval '1 hour', 'active'
         FROM generate_series(1, 3) AS g
       RETURNING id::text AS id, ends_at, status`,
      { type: QueryTypes.SELECT },
    );
    const jobs = await queuedJobs("close_lot");
    const open = rows.filter((row) => row.status === "active");
    expect(open).toHaveLength(3);
    expect(jobs.map((job) => job.key).sort()).toEqual(
      open.map((row) => `close_lot:${row.id}`).sort(),
    );
    for (const row of open) {
      const job = jobs.find((item) => item.key === `close_lot:${row.id}`)!;
      expect(new Date(job.run_at).getTime()).toBe(new Date(row.ends_at).getTime());
      expect(job.priority).toBe(-10);
    }
  });
});

describe("an outbid e-mail (record 3568)", () => {
  it("is queued by the bid that outbid someone, one job per lot, and its run mails them", async () => {
    await clearJobs();
    const alice = await createTestUser({ verified: true, deposit: "5000.00" });
    const bob = await createTestUser({ verified: true, deposit: "5000.00" });
    const lot = await createTestLot();
    const lotId = String(lot.id);
    await placeBid(alice.id, { lotId, amount: "300", isProxy: false });
    expect(await queuedJobs("outbid_mail")).toHaveLength(0); // nobody was outbid
    await placeBid(bob.id, { lotId, amount: "450", isProxy: false });
    await placeBid(alice.id, { lotId, amount: "600", isProxy: false });
    const waiting = await queuedJobs("outbid_mail");
    expect(waiting.map((job) => job.key)).toEqual([`outbid_mail:${lotId}`]);
    expect(new Date(waiting[0].run_at).getTime()).toBeLessThanOrEqual(Date.now());

    await runJobs();
    const mails = await sequelize.query<{ user_id: string }>(
      "SELECT user_id FROM mail_outbox WHERE topic = 'outbid' AND user_id IN (:ids)",
      { replacements: { ids: [alice.id, bob.id] }, type: QueryTypes.SELECT },
    );
    // Alice leads again, so only Bob's notice is mailed
    expect(mails.map((mail) => mail.user_id)).toEqual([bob.id]);
    expect(await queuedJobs("outbid_mail")).toHaveLength(0);
  });
});
