// The soak's job worker (docs/decisions/3561, 3567): build/server/jobs.js started as Fly's worker
// group runs it, its JSON log read line by line. Every run line ("job" or "job failed", with its
// job_id) is counted in a ledger shared by the workers the soak starts, so a job that ran to the
// end twice (in one worker or across a kill -9 and its replacement) shows at the end.
import { spawn, type ChildProcess } from "node:child_process";

/** What the workers said about each job: finished runs and failed tries, by job id. */
export class JobLedger {
  readonly ok = new Map<string, { kind: string; runs: number; workers: number[] }>();
  readonly failed = new Map<string, { kind: string; tries: number; error: string }>();
  /** error and fatal lines other than a failed try's (and anything not JSON that says error) */
  readonly errorLines: string[] = [];
  /** warn lines other than a job's failed try: the unlocking of a dead worker's jobs, say */
  readonly warnLines: string[] = [];
  /** each finished run's time (its run line's ms), by kind */
  readonly durations = new Map<string, number[]>();
  /** when a worker first said it unlocked the jobs of workers that stopped (Date.now()) */
  unlockedAt: number | null = null;

  /** One line of a worker's stdout or stderr. */
  read(line: string, worker: number) {
    if (!line.trim()) return;
    let parsed: {
      level?: string;
      msg?: string;
      job_id?: string | number;
      kind?: string;
      ms?: number;
      failure?: boolean;
      err?: { message?: string };
    };
    try {
      parsed = JSON.parse(line);
    } catch {
      if (/error/i.test(line)) this.errorLines.push(`#${worker} ${line}`);
      return;
    }
    const id = parsed.job_id === undefined ? undefined : String(parsed.job_id);
    if (parsed.msg === "job" && id) {
      const seen = this.ok.get(id) ?? { kind: parsed.kind ?? "?", runs: 0, workers: [] };
      seen.runs += 1;
      seen.workers.push(worker);
      this.ok.set(id, seen);
      if (typeof parsed.ms === "number")
        this.durations.set(seen.kind, [...(this.durations.get(seen.kind) ?? []), parsed.ms]);
      return;
    }
    if (parsed.msg === "job failed" && id) {
      const seen = this.failed.get(id) ?? { kind: parsed.kind ?? "?", tries: 0, error: "" };
      seen.tries += 1;
      seen.error = String(parsed.err?.message ?? "").slice(0, 300);
      this.failed.set(id, seen);
      return;
    }
    if (parsed.msg === "jobs: unlocked the jobs of workers that stopped")
      this.unlockedAt ??= Date.now();
    // graphile-worker's own "Failed task …" line (marked failure) says again what the run's
    // "job failed" line said: a try that the queue retries, counted in `failed`, not an error
    if (parsed.failure) return;
    if (parsed.level === "error" || parsed.level === "fatal")
      this.errorLines.push(`#${worker} ${line}`);
    else if (parsed.level === "warn") this.warnLines.push(`#${worker} ${line}`);
  }

  /** Jobs that ran to the end more than once. */
  twice() {
    return [...this.ok].filter(([, seen]) => seen.runs > 1);
  }

  /** Finished runs by kind. */
  runsByKind() {
    const kinds = new Map<string, number>();
    for (const seen of this.ok.values()) kinds.set(seen.kind, (kinds.get(seen.kind) ?? 0) + 1);
    return kinds;
  }
}

export type JobWorkerProcess = {
  /** 1 for the first worker the soak started, 2 for the one after a kill, … */
  number: number;
  proc: ChildProcess;
  metricsPort: number;
  /** when it said "jobs: worker started" (Date.now()) */
  startedAt: number;
  output: () => string;
};

/** Starts build/server/jobs.js with `env` and waits until it takes jobs. */
export async function startJobWorker(
  env: Record<string, string>,
  metricsPort: number,
  number: number,
  ledger: JobLedger,
): Promise<JobWorkerProcess> {
  const proc = spawn("node", ["build/server/jobs.js"], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...env,
      METRICS_PORT: String(metricsPort),
      LOG_FORMAT: "json",
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let tail = "";
  let startedAt = 0;
  const partial = { stdout: "", stderr: "" };
  const onData = (stream: "stdout" | "stderr") => (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    tail = (tail + text).slice(-20_000);
    const lines = (partial[stream] + text).split("\n");
    partial[stream] = lines.pop() ?? "";
    for (const line of lines) {
      if (!startedAt && line.includes("jobs: worker started")) startedAt = Date.now();
      ledger.read(line, number);
    }
  };
  proc.stdout!.on("data", onData("stdout"));
  proc.stderr!.on("data", onData("stderr"));
  for (const began = Date.now(); !startedAt;) {
    if (proc.exitCode !== null || Date.now() - began > 60_000)
      throw new Error(`the job worker did not start:\n${tail}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { number, proc, metricsPort, startedAt, output: () => tail };
}

/** SIGTERM to the job worker (it finishes its running jobs), SIGKILL after 10 s. */
export function stopJobWorker(proc: ChildProcess | undefined) {
  return new Promise<void>((resolve) => {
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
    const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
    proc.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    proc.kill("SIGTERM");
  });
}

/** kill -9: the worker gets no chance to finish or unlock anything. */
export function killJobWorker(proc: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once("exit", () => resolve());
    proc.kill("SIGKILL");
  });
}
