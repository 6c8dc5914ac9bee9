// The soak's and the bench's queue figures (docs/decisions/3567): percentiles by nearest rank, work
// split by where its event fell against a worker kill, and the job ledger that tells a job run to
// the end twice from a job cut off by a kill and run again.
import { describe, expect, it } from "vitest";
import { byPhase, describe as describeStats, percentile, phaseOf, stats } from "../../soak/latency";
import { JobLedger } from "../../soak/worker";

describe("queue figures", () => {
  it("takes percentiles by nearest rank", () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
    // a few values: the 95th is the largest, never an interpolation below it
    expect(stats([300, 100, 200])).toEqual({ n: 3, p50: 200, p95: 300, p99: 300, max: 300 });
    expect(stats([])).toBeNull();
    expect(describeStats(stats([400, 1200]))).toBe("p50 0.40 s, p95 1.20 s, max 1.20 s (n = 2)");
    expect(describeStats(null)).toBe("none");
  });

  it("splits work by where its event fell against the kill", () => {
    const kill = { killedAt: 100_000, restartedAt: 110_000, unlockedAt: 135_000 };
    expect(phaseOf(89_999, kill)).toBe("before the kill");
    // queued just before the kill: it may have been cut off with the worker
    expect(phaseOf(95_000, kill)).toBe("around the kill");
    expect(phaseOf(120_000, kill)).toBe("around the kill");
    expect(phaseOf(135_000, kill)).toBe("after the kill");
    // no unlock line: the window ends when the new worker took jobs
    expect(phaseOf(112_000, { ...kill, unlockedAt: 0 })).toBe("after the kill");
    const phases = byPhase(
      [
        { at: 10_000, ms: 300 },
        { at: 99_000, ms: 9_000 },
        { at: 200_000, ms: 200 },
      ],
      kill,
    );
    expect(phases.get("before the kill")).toEqual([300]);
    expect(phases.get("around the kill")).toEqual([9_000]);
    expect(phases.get("after the kill")).toEqual([200]);
    expect([...byPhase([{ at: 1, ms: 5 }], null)]).toEqual([["whole run", [5]]]);
  });

  it("counts a job's finished runs across workers, not its cut-off ones", () => {
    const ledger = new JobLedger();
    const line = (fields: Record<string, unknown>) => JSON.stringify({ level: "info", ...fields });
    ledger.read(line({ msg: "job", job_id: "7", kind: "send_mail", ms: 12 }), 1);
    // job 8 was running when worker 1 was killed: only worker 2's run finished
    ledger.read(line({ msg: "job", job_id: "8", kind: "close_lot", ms: 30 }), 2);
    ledger.read(line({ level: "warn", msg: "jobs: unlocked the jobs of workers that stopped" }), 2);
    ledger.read(
      line({
        level: "warn",
        msg: "job failed",
        job_id: "9",
        kind: "send_mail",
        err: { message: "ECONNREFUSED" },
      }),
      2,
    );
    // the library's own line for the same failed try
    ledger.read(
      line({
        level: "error",
        scope: "worker",
        failure: true,
        msg: "Failed task 9 (send_mail, 17.46ms, attempt 1 of 21) with error 'ECONNREFUSED'",
      }),
      2,
    );
    ledger.read("not json, no trouble", 2);
    expect(ledger.twice()).toEqual([]);
    expect(ledger.unlockedAt).not.toBeNull();
    expect(ledger.failed.get("9")).toEqual({ kind: "send_mail", tries: 1, error: "ECONNREFUSED" });
    expect(ledger.errorLines).toEqual([]);
    expect(ledger.durations.get("close_lot")).toEqual([30]);

    // the same job finished by both workers: run twice
    ledger.read(line({ msg: "job", job_id: "7", kind: "send_mail", ms: 9 }), 2);
    expect(ledger.twice()).toEqual([["7", { kind: "send_mail", runs: 2, workers: [1, 2] }]]);
    expect(Object.fromEntries(ledger.runsByKind())).toEqual({ send_mail: 1, close_lot: 1 });

    ledger.read(line({ level: "error", msg: "jobs: could not stop cleanly" }), 1);
    ledger.read("Error: something thrown outside the logger", 1);
    expect(ledger.errorLines).toHaveLength(2);
  });
});
