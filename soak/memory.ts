// Samples the server process's resident memory (VmRSS from /proc) and judges whether it stayed
// flat after the warm-up.
import { readFileSync } from "node:fs";

export type Sample = { atMs: number; rssMb: number };

export function readRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export function startSampler(pid: number, everyMs: number) {
  const samples: Sample[] = [];
  const started = Date.now();
  const take = () => {
    const rssMb = readRssMb(pid);
    if (rssMb !== null) samples.push({ atMs: Date.now() - started, rssMb });
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      take();
    },
  };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / (values.length || 1);

/** Least-squares slope of RSS over time, in MB per minute. */
function slopeMbPerMinute(samples: Sample[]) {
  if (samples.length < 2) return 0;
  const xs = samples.map((s) => s.atMs / 60_000);
  const ys = samples.map((s) => s.rssMb);
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

export type MemoryVerdict = {
  ok: boolean;
  lines: string[];
};

/**
 * Flat = after the warm-up (the first `warmupShare` of the run), the average RSS of the last
 * quarter is at most `maxGrowthMb` AND at most `maxGrowthPct` above the first quarter's.
 */
export function judgeMemory(
  samples: Sample[],
  runMs: number,
  { warmupShare = 0.2, maxGrowthMb = 30, maxGrowthPct = 15 } = {},
): MemoryVerdict {
  const warm = samples.filter((s) => s.atMs >= runMs * warmupShare && s.atMs <= runMs);
  const lines: string[] = [];
  if (warm.length < 8) {
    return { ok: false, lines: [`too few samples after warm-up (${warm.length})`] };
  }
  const from = warm[0].atMs;
  const span = warm[warm.length - 1].atMs - from;
  const quarter = (k: number) =>
    warm.filter((s) => s.atMs - from >= (k * span) / 4 && s.atMs - from <= ((k + 1) * span) / 4);
  const quarters = [0, 1, 2, 3].map((k) => mean(quarter(k).map((s) => s.rssMb)));
  const growthMb = quarters[3] - quarters[0];
  const growthPct = (growthMb / quarters[0]) * 100;
  const all = samples.map((s) => s.rssMb);
  const ok = growthMb <= maxGrowthMb && growthPct <= maxGrowthPct;
  lines.push(
    `${samples.length} samples; start ${all[0].toFixed(0)} MB, min ${Math.min(...all).toFixed(0)}, ` +
      `max ${Math.max(...all).toFixed(0)}, end ${all[all.length - 1].toFixed(0)} MB`,
  );
  lines.push(
    `after warm-up (first ${warmupShare * 100}% of the run), quarter averages: ` +
      quarters.map((q) => `${q.toFixed(1)}`).join(" → ") +
      " MB",
  );
  lines.push(
    `growth last vs first quarter: ${growthMb >= 0 ? "+" : ""}${growthMb.toFixed(1)} MB ` +
      `(${growthPct >= 0 ? "+" : ""}${growthPct.toFixed(1)}%), trend ${slopeMbPerMinute(warm).toFixed(2)} MB/min; ` +
      `bound: ≤ ${maxGrowthMb} MB and ≤ ${maxGrowthPct}%`,
  );
  // a coarse strip of the whole run: one average per tenth
  const strip: string[] = [];
  for (let k = 0; k < 10; k++) {
    const part = samples.filter(
      (s) => s.atMs >= (k * runMs) / 10 && s.atMs < ((k + 1) * runMs) / 10,
    );
    if (part.length) strip.push(mean(part.map((s) => s.rssMb)).toFixed(0));
  }
  lines.push(`per tenth of the run (MB): ${strip.join(" ")}`);
  return { ok, lines };
}
