// The background kinds on the queue (docs/decisions/3561): every periodic kind has a schedule,
// and one that repeats keeps a single waiting job however often it is asked for.
import { describe, expect, it } from "vitest";
import { addJob } from "~/platform/jobs/queue.server";
import { FAST_REPEAT_MS, jobHandlers, schedules } from "~/platform/jobs/tasks.server";
import { clearJobs, queuedJobs, runJobs } from "../support/jobs";

describe("background schedules", () => {
  it("schedule every periodic kind, and only kinds a worker can run", () => {
    const kinds = Object.keys(jobHandlers());
    const scheduled = schedules.map((item) => item.task);
    // close_lot and send_mail are queued by the writes that need them, not by the clock
    expect(new Set(scheduled)).toEqual(
      new Set(kinds.filter((kind) => kind !== "close_lot" && kind !== "send_mail")),
    );
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
    const waiting = await queuedJobs("notices");
    expect(waiting).toHaveLength(1);
    const dueIn = new Date(waiting[0].run_at).getTime() - before;
    expect(dueIn).toBeGreaterThan(FAST_REPEAT_MS - 1_000);
    expect(dueIn).toBeLessThan(FAST_REPEAT_MS + 5_000);
  });
});
