// The server's memory during the soak: resident memory (VmRSS from /proc) sampled here, and the
// JavaScript heap after each forced full GC as gc-probe.cjs reports it on the server's stdout.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { processTree, treeKb } from "../tests/support/process-memory";

export type Sample = { atMs: number; mb: number };

/**
 * Proportional set size of the process tree in MB: each shared page (the node binary's code,
 * shared libraries, files mapped by several processes) divided among the processes that map it,
 * so the sum is what the tree holds once; RSS counts a shared page in every process.
 */
export function readPssMb(pid: number): number | null {
  let kb = 0;
  for (const p of processTree(pid)) {
    try {
      const text = readFileSync(`/proc/${p}/smaps_rollup`, "utf8");
      kb += Number(/^Pss:\s+(\d+)/m.exec(text)?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb > 0 ? kb / 1024 : null;
}

/** One line of soak/gc-probe.cjs, after a full GC. */
export type ProbeReport = {
  pid: number;
  heapMb: number;
  heapTotalMb?: number;
  externalMb?: number;
  arrayBuffersMb?: number;
  rssMb?: number;
  anonMb?: number;
  fileMb?: number;
  pssMb?: number;
};

/** A process's report on one line. */
export function describeReport(r: ProbeReport) {
  return (
    `pid ${r.pid}: RSS ${r.rssMb?.toFixed(0)} MB (anonymous ${r.anonMb?.toFixed(0)}, files ${r.fileMb?.toFixed(0)}), ` +
    `PSS ${r.pssMb?.toFixed(0)} MB; ` +
    `JS heap ${r.heapMb.toFixed(0)} used of ${r.heapTotalMb?.toFixed(0)} committed; ` +
    `outside the heap ${r.externalMb?.toFixed(0)} (array buffers ${r.arrayBuffersMb?.toFixed(0)})`
  );
}

/** Resident memory of the server: all its processes, in MB (null once it is gone). */
export function readRssMb(pid: number): number | null {
  const kb = treeKb(pid, "VmRSS");
  return kb > 0 ? kb / 1024 : null;
}

/**
 * RSS every `everyMs`, and the heap after GC as the probe prints it (summed over the server's
 * processes: each one's latest report), on one clock.
 */
export function startSampler(proc: ChildProcess, everyMs: number) {
  const rss: Sample[] = [];
  const pss: Sample[] = [];
  const heap: Sample[] = [];
  const started = Date.now();
  const take = () => {
    const mb = readRssMb(proc.pid!);
    if (mb !== null) rss.push({ atMs: Date.now() - started, mb });
    const proportional = readPssMb(proc.pid!);
    if (proportional !== null) pss.push({ atMs: Date.now() - started, mb: proportional });
  };
  let partial = "";
  const latest = new Map<number, { atMs: number; mb: number }>();
  const lastReport = new Map<number, ProbeReport>();
  const onData = (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const probe = /^\[soak-gc\] (\{.*\})$/.exec(line.trim());
      if (!probe) continue;
      const report = JSON.parse(probe[1]) as ProbeReport;
      if (report.heapMb === undefined) continue; // a heap snapshot's line
      const { pid, heapMb } = report;
      lastReport.set(pid, report);
      const atMs = Date.now() - started;
      latest.set(pid, { atMs, mb: heapMb });
      // a process that stopped reporting (a replaced worker) no longer counts
      for (const [other, last] of latest) if (atMs - last.atMs > 30_000) latest.delete(other);
      heap.push({ atMs, mb: [...latest.values()].reduce((sum, l) => sum + l.mb, 0) });
    }
  };
  proc.stdout!.on("data", onData);
  take();
  const timer = setInterval(take, everyMs);
  return {
    rss,
    pss,
    heap,
    /** Each process's last report: where its memory is. */
    lastReport,
    stop() {
      clearInterval(timer);
      proc.stdout!.off("data", onData);
      take();
    },
  };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / (values.length || 1);

/** Least-squares slope over time, in MB per minute. */
function slopeMbPerMinute(samples: Sample[]) {
  if (samples.length < 2) return 0;
  const xs = samples.map((s) => s.atMs / 60_000);
  const ys = samples.map((s) => s.mb);
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export type Bound = { maxGrowthMb: number; maxGrowthPct: number };
export type Verdict = { name: string; ok: boolean; summary: string; lines: string[] };

/**
 * Flat = after the warm-up (the first `warmupShare` of the run), the average of the last quarter
 * is at most `maxGrowthMb` AND at most `maxGrowthPct` above the average of the first quarter.
 */
export function judgeSeries(
  name: string,
  samples: Sample[],
  runMs: number,
  bound: Bound,
  warmupShare = 0.2,
): Verdict {
  const warm = samples.filter((s) => s.atMs >= runMs * warmupShare && s.atMs <= runMs);
  if (warm.length < 8)
    return {
      name,
      ok: false,
      summary: `${name}: too few samples after warm-up (${warm.length})`,
      lines: [],
    };
  const from = warm[0].atMs;
  const span = warm[warm.length - 1].atMs - from;
  const quarter = (k: number) =>
    warm.filter((s) => s.atMs - from >= (k * span) / 4 && s.atMs - from <= ((k + 1) * span) / 4);
  const quarters = [0, 1, 2, 3].map((k) => mean(quarter(k).map((s) => s.mb)));
  const growthMb = quarters[3] - quarters[0];
  const growthPct = (growthMb / quarters[0]) * 100;
  const ok = growthMb <= bound.maxGrowthMb && growthPct <= bound.maxGrowthPct;
  const all = samples.map((s) => s.mb);
  const sign = (n: number) => (n >= 0 ? "+" : "");
  const strip: string[] = [];
  for (let k = 0; k < 10; k++) {
    const part = samples.filter(
      (s) => s.atMs >= (k * runMs) / 10 && s.atMs < ((k + 1) * runMs) / 10,
    );
    if (part.length) strip.push(mean(part.map((s) => s.mb)).toFixed(0));
  }
  const summary =
    `${name} ${sign(growthMb)}${growthMb.toFixed(1)} MB (${sign(growthPct)}${growthPct.toFixed(1)}%) ` +
    `last vs first quarter after warm-up; bound ≤ ${bound.maxGrowthMb} MB and ≤ ${bound.maxGrowthPct}%`;
  return {
    name,
    ok,
    summary,
    lines: [
      `${name}: ${samples.length} samples; start ${all[0].toFixed(0)} MB, min ${Math.min(...all).toFixed(0)}, ` +
        `max ${Math.max(...all).toFixed(0)}, end ${all[all.length - 1].toFixed(0)} MB`,
      `  per tenth of the run (MB): ${strip.join(" ")}`,
      `  after warm-up (first ${warmupShare * 100}%), quarter averages: ` +
        `${quarters.map((q) => q.toFixed(1)).join(" → ")} MB; trend ${slopeMbPerMinute(warm).toFixed(2)} MB/min`,
      `  ${summary}: ${ok ? "flat" : "GROWING"}`,
    ],
  };
}
