// /admin/jobs (docs/decisions/3561): failed background jobs, with retry and discard, for admins
// only, without JavaScript (plain form posts).
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { queueMail } from "~/platform/mail/outbox.server";
import * as page from "~/routes/admin_.jobs";
import { createTestUser, requestAs } from "../support/auth";
import { clearJobs, queuedJobs, runJobs } from "../support/jobs";
import { createTestLot } from "../support/lots";

type Handler = (args: {
  request: Request;
  params: Record<string, never>;
  context: Record<string, never>;
}) => Promise<unknown>;

async function run(handler: Handler, request: Request) {
  try {
    const result = await handler({ request, params: {}, context: {} });
    if (result instanceof Response) return { status: result.status, result };
    return { status: 200, result };
  } catch (error) {
    if (error instanceof Response) return { status: error.status, result: error };
    throw error;
  }
}

const down = {
  sendMail: async () => {
    throw Object.assign(new Error("Connection closed"), { code: "ECONNECTION" });
  },
};

async function failedMailJob() {
  await clearJobs();
  const user = await createTestUser();
  await queueMail({
    userId: user.id,
    topic: "alerts",
    subject: "Stuck",
    content: { paragraphs: ["Hello."] },
  });
  await runJobs({ transport: down });
  const [job] = await queuedJobs("send_mail");
  expect(job.last_error).toContain("Connection closed");
  return job;
}

describe("/admin/jobs", () => {
  it("lists a failed job with its kind, error, tries, next run and what it is about", async () => {
    const admin = await createTestUser({ role: "admin" });
    const user = await createTestUser();
    const job = await failedMailJob();
    expect((await run(page.loader, await requestAs(user, "/admin/jobs"))).status).toBe(403);
    const listed = await run(page.loader, await requestAs(admin, "/admin/jobs"));
    const { jobs } = listed.result as Awaited<ReturnType<typeof page.loader>>;
    expect(jobs).toEqual([
      expect.objectContaining({
        id: job.id,
        kind: "send_mail",
        attempts: 1,
        maxAttempts: 21,
        error: expect.stringContaining("Connection closed"),
        nextRunAt: expect.any(String),
        about: expect.objectContaining({ label: expect.stringContaining("E-mail") }),
      }),
    ]);
  });

  it("retries a job now with its tries afresh, or discards it; others get 403, bad input 400", async () => {
    const admin = await createTestUser({ role: "admin" });
    const user = await createTestUser();
    const job = await failedMailJob();
    const post = (who: typeof admin, form: Record<string, string>) =>
      requestAs(who, "/admin/jobs", { form });

    expect(
      (await run(page.action, await post(user, { intent: "retry", jobId: job.id }))).status,
    ).toBe(403);
    expect(
      (await run(page.action, await post(admin, { intent: "run", jobId: job.id }))).status,
    ).toBe(400);
    expect(
      (await run(page.action, await post(admin, { intent: "retry", jobId: "x1" }))).status,
    ).toBe(400);
    expect((await queuedJobs("send_mail"))[0].attempts).toBe(1);

    const retried = await run(page.action, await post(admin, { intent: "retry", jobId: job.id }));
    expect(retried.status).toBe(302);
    const [again] = await queuedJobs("send_mail");
    expect(again.attempts).toBe(0);
    expect(new Date(again.run_at).getTime()).toBeLessThanOrEqual(Date.now() + 1_000);

    // it fails again, then is discarded: gone, and a second discard is a clear no (no 500)
    await runJobs({ transport: down });
    const discarded = await run(
      page.action,
      await post(admin, { intent: "discard", jobId: job.id }),
    );
    expect(discarded.status).toBe(302);
    expect(await queuedJobs("send_mail")).toHaveLength(0);
    const twice = await run(page.action, await post(admin, { intent: "discard", jobId: job.id }));
    expect(twice.status).toBe(302);
    expect((twice.result as Response).headers.get("set-cookie")).toBeTruthy();

    const audit = await sequelize.query<{ action: string }>(
      "SELECT action FROM admin_audit_log WHERE target_type = 'job' AND target_id = :id ORDER BY id",
      { replacements: { id: job.id }, type: QueryTypes.SELECT },
    );
    expect(audit.map((a) => a.action)).toEqual(["job.retry", "job.discard"]);
  });

  it("names the lot a failed close job is about", async () => {
    const admin = await createTestUser({ role: "admin" });
    await clearJobs();
    const lot = await createTestLot();
    await sequelize.query(
      `UPDATE graphile_worker._private_jobs SET last_error = 'boom', attempts = 25,
              max_attempts = 25 WHERE key = :key`,
      { replacements: { key: `close_lot:${lot.id}` } },
    );
    const listed = await run(page.loader, await requestAs(admin, "/admin/jobs"));
    const { jobs } = listed.result as Awaited<ReturnType<typeof page.loader>>;
    expect(jobs).toEqual([
      expect.objectContaining({
        kind: "close_lot",
        nextRunAt: null,
        about: { label: `Lot ${lot.id}`, href: `/auctions/${lot.id}` },
      }),
    ]);
  });
});
