// Prometheus metrics (docs/decisions/3003). Part of the production server (server/index.ts).
//
// Each worker keeps its own metrics in prom-client's default registry: the request durations
// below, Node's own (event-loop lag, heap, GC, resident memory) and the app's
// (app/platform/metrics.server.ts: bids, streams, outbox, closer, pool). The primary serves
// them on METRICS_PORT, summed over the workers by prom-client's cluster aggregation (a gauge
// read from the database says max instead), with its own figures for the whole server.
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { Logger } from "pino";
import client from "prom-client";
import type { MemoryPlan } from "./memory.ts";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** In a worker: Node's metrics, the request histogram, and answers to the primary's asks. */
export function workerMetrics() {
  client.collectDefaultMetrics({ eventLoopMonitoringPrecision: 10 });
  // constructing it is what makes a worker answer the primary's requests for its metrics
  new client.AggregatorRegistry();
  const duration = new client.Histogram({
    name: "bidyard_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by route id and status (event streams not included)",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  return {
    observeRequest(method: string, route: string, status: number, ms: number) {
      duration.observe(
        { method: METHODS.has(method) ? method : "other", route, status: String(status) },
        ms / 1000,
      );
    },
  };
}

/** VmRSS of one process in bytes (0 once it is gone). */
function residentBytes(pid: number) {
  try {
    const kb = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Proportional set size of one process in bytes (0 once it is gone): a page shared by n processes
 * (the node binary's code, mapped by the primary and every worker) counts 1/n in each, so the sum
 * over the processes is what the machine holds (docs/decisions/3211).
 */
function proportionalBytes(pid: number) {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kb = /^Pss:\s+(\d+)/m.exec(text)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** In the primary: GET /metrics on `port`, the workers' metrics summed plus the server's own. */
export type WorkerMetrics = ReturnType<typeof workerMetrics>;

export async function startMetricsServer({
  port,
  host,
  plan,
  restarts,
  log,
}: {
  port: number;
  host?: string;
  plan: MemoryPlan;
  restarts: () => number;
  log: Logger;
}) {
  const aggregator = new client.AggregatorRegistry();
  const own = new client.Registry();
  const workerPids = () =>
    Object.values(cluster.workers ?? {})
      .map((worker) => worker?.process.pid)
      .filter((pid): pid is number => typeof pid === "number");
  new client.Gauge({
    name: "bidyard_server_resident_memory_bytes",
    help: "Resident memory (RSS) of the primary and all its workers summed: pages they share are counted in each",
    registers: [own],
    collect() {
      this.set([process.pid, ...workerPids()].reduce((sum, pid) => sum + residentBytes(pid), 0));
    },
  });
  new client.Gauge({
    name: "bidyard_server_memory_bytes",
    help: "Memory the primary and all its workers hold on the machine (PSS: shared pages counted once); compare with the budget",
    registers: [own],
    collect() {
      this.set(
        [process.pid, ...workerPids()].reduce((sum, pid) => sum + proportionalBytes(pid), 0),
      );
    },
  });
  new client.Gauge({
    name: "bidyard_server_memory_budget_bytes",
    help: "The share of the machine's memory the server's processes are sized to stay under",
    registers: [own],
  }).set(plan.budgetMb * 2 ** 20);
  new client.Gauge({
    name: "bidyard_worker_heap_limit_bytes",
    help: "Each worker's old-generation heap cap, sized from the machine's memory",
    registers: [own],
  }).set(plan.workerHeapMb * 2 ** 20);
  new client.Gauge({
    name: "bidyard_workers",
    help: "Worker processes running",
    registers: [own],
    collect() {
      this.set(workerPids().length);
    },
  });
  new client.Counter({
    name: "bidyard_worker_restarts_total",
    help: "Workers that died and were replaced",
    registers: [own],
    collect() {
      this.reset();
      this.inc(restarts());
    },
  });

  const server = http.createServer(async (req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
      return;
    }
    try {
      const [workers, mine] = await Promise.all([aggregator.clusterMetrics(), own.metrics()]);
      res.writeHead(200, { "Content-Type": aggregator.contentType }).end(`${mine}\n${workers}`);
    } catch (error) {
      log.error({ err: error }, "metrics: could not gather the workers' metrics");
      res.writeHead(503, { "Content-Type": "text/plain" }).end("Metrics unavailable");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  log.info({ port }, `metrics on http://localhost:${port}/metrics`);
  return server;
}
