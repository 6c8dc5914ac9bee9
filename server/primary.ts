// The primary process (docs/decisions/1905, 3005): forks the workers with heap caps sized from the
// machine's memory, replaces one that dies, serves the metrics, and stops them all on SIGTERM.
import cluster from "node:cluster";
import type { Server } from "node:http";
import { createLog } from "./log.ts";
import { machineMemoryMb, memoryPlan } from "./memory.ts";

export async function startPrimary() {
  const workers = Math.max(1, Number(process.env.WEB_CONCURRENCY ?? 1) || 1);
  const log = await createLog();
  // One worker accepts its own connections (no hand-off through this process); several take
  // turns (round robin), which Linux would otherwise balance poorly.
  cluster.schedulingPolicy = workers === 1 ? cluster.SCHED_NONE : cluster.SCHED_RR;
  const plan = memoryPlan(machineMemoryMb(), workers);
  // The workers' heap caps come from the plan: a cap this process was started with is its own
  // (package.json's start, the Dockerfile), not theirs (docs/decisions/3005).
  const heapFlag = /^--max-(old|semi)-space-size/;
  cluster.setupPrimary({
    execArgv: [...process.execArgv.filter((arg) => !heapFlag.test(arg)), ...plan.workerNodeArgs],
  });
  log.info(
    {
      memory_mb: plan.memoryMb,
      budget_mb: plan.budgetMb,
      workers,
      worker_heap_mb: plan.workerHeapMb,
    },
    "starting workers",
  );
  let stopping = false;
  const listening = new Set<number>();
  let restarts = 0;
  cluster.on("listening", (worker) => listening.add(worker.id));
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // a worker that never started (bad settings) would only fail again: stop with its code
    if (!listening.has(worker.id)) process.exit(code || 1);
    restarts += 1;
    log.error({ worker_pid: worker.process.pid, code, signal }, "worker exited; starting another");
    cluster.fork();
  });
  // glibc gives each thread that allocates its own malloc arena, and freed memory stays in them:
  // a worker's resident size crept up with every libuv and libvips thread. Two arenas keep it
  // flat (docs/decisions/3005); read by glibc when a worker starts, so set before forking.
  process.env.MALLOC_ARENA_MAX ??= "2";
  for (let i = 0; i < workers; i += 1) cluster.fork();

  let metricsServer: Server | null = null;
  if (process.env.METRICS_PORT) {
    const { startMetricsServer } = await import("./metrics.ts");
    // the site keeps serving without its metrics (a port already taken, say): said once, loudly
    metricsServer = await startMetricsServer({
      port: Number(process.env.METRICS_PORT),
      host: process.env.METRICS_HOST,
      plan,
      restarts: () => restarts,
      log,
    }).catch((error: unknown) => {
      log.error({ err: error }, "metrics: could not listen; serving without metrics");
      return null;
    });
  }

  const stop = () => {
    stopping = true;
    metricsServer?.close();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    setTimeout(() => process.exit(0), 6_000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
