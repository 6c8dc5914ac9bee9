// BidYard's job worker process (docs/decisions/3561): the app's background jobs (closing lots,
// sending e-mail, alerts, reminders, refunds, pictures, prunes) on the PostgreSQL queue, apart
// from the web processes, which run none. `npm run build` bundles this into build/server/jobs.js;
// production runs it as Fly's `worker` process group, `npm run dev` and `npm run preview` start
// one beside the web server. Several may run at once: each job is taken by one.
//
// Its metrics (the job runs and failures it counted, the queue's state, Node's own) are served on
// METRICS_PORT, like the web server's.
import http from "node:http";
import path from "node:path";
import url from "node:url";
import client from "prom-client";
import { createLog } from "./log.ts";

type JobsEntry = {
  regionSettings?(): {
    region: string | null;
    primaryRegion: string | null;
    replicaRegion: boolean;
  };
  startJobWorker(options?: {
    concurrency?: number;
    heartbeatMs?: number;
  }): Promise<{ stop(): Promise<void> }>;
  registerQueueMetrics(): void;
};

const log = await createLog();
const buildPath = path.resolve(process.env.REMIX_BUILD ?? "build/index.js");
const imported = await import(url.pathToFileURL(buildPath).href);
const entry = imported.entry.module as JobsEntry;

let metricsServer: http.Server | null = null;
if (process.env.METRICS_PORT) {
  client.collectDefaultMetrics();
  entry.registerQueueMetrics();
  metricsServer = http.createServer(async (req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
      return;
    }
    try {
      const text = await client.register.metrics();
      res.writeHead(200, { "Content-Type": client.register.contentType }).end(text);
    } catch (error) {
      log.error({ err: error }, "metrics: could not gather them");
      res.writeHead(503, { "Content-Type": "text/plain" }).end("Metrics unavailable");
    }
  });
  metricsServer.on("error", (error) =>
    log.error({ err: error }, "metrics: could not listen; working without metrics"),
  );
  metricsServer.listen(Number(process.env.METRICS_PORT), process.env.METRICS_HOST);
}

// Background work runs in the primary region only, beside the database it writes
// (docs/decisions/3701): a worker started elsewhere says so and takes no job.
const regions = entry.regionSettings?.();
const idle = regions?.replicaRegion === true;
if (idle) {
  log.warn(
    { region: regions.region, primary_region: regions.primaryRegion },
    "jobs: this machine is not in the primary region; it takes no jobs",
  );
  // nothing else holds the process open: it idles until told to stop
  setInterval(() => undefined, 60_000);
}

// JOB_CONCURRENCY: jobs at once (default 4). JOB_HEARTBEAT_MS: how often it says it is alive
// (default 10 s; a worker silent for three of these has its jobs unlocked for the others).
const worker = idle
  ? { stop: async () => undefined }
  : await entry.startJobWorker({
      concurrency: Number(process.env.JOB_CONCURRENCY ?? 4) || 4,
      ...(Number(process.env.JOB_HEARTBEAT_MS) > 0
        ? { heartbeatMs: Number(process.env.JOB_HEARTBEAT_MS) }
        : {}),
    });

// On SIGTERM: take no new job, let the ones running finish (graphile-worker waits for them),
// exit. A job cut off by a hard kill is run again (its lock is freed by another worker).
let stopping = false;
function shutdown() {
  if (stopping) return;
  stopping = true;
  metricsServer?.close();
  setTimeout(() => process.exit(0), 25_000).unref();
  worker.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      log.error({ err: error }, "jobs: could not stop cleanly");
      process.exit(1);
    },
  );
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
