// BidYard's production server: the Remix build behind Express, with long-lived caching for the
// fingerprinted assets and compression for what is worth compressing (docs/decisions/1102).
// `npm run build` bundles server/ into build/server/index.js, which production runs; `npm run dev`
// runs these files as they are (Node 24 strips the types; docs/decisions/3103).
//
// The process started by the platform is always a small primary that loads no app code
// (./primary.ts): it sizes and forks WEB_CONCURRENCY (default 1) workers, replaces one that dies,
// and serves the metrics. The workers serve HTTP (./worker.ts).
import cluster from "node:cluster";

if (cluster.isPrimary) {
  const { startPrimary } = await import("./primary.ts");
  await startPrimary();
} else {
  const { startWorker } = await import("./worker.ts");
  await startWorker();
}
