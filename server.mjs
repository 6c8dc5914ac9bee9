// BidYard's production server: the Remix build behind Express, with long-lived caching for the
// fingerprinted assets and compression for what is worth compressing. No per-request access log
// (the platform's proxy logs requests; writing a line per request cost about a tenth of the CPU
// under load). WEB_CONCURRENCY (default 1) runs that many worker processes on one port, for
// machines with more than one core. See docs/decisions/1102-own-production-server.md.
import cluster from "node:cluster";
import { readdirSync } from "node:fs";
import path from "node:path";
import url from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import sourceMapSupport from "source-map-support";

const workers = Math.max(1, Number(process.env.WEB_CONCURRENCY ?? 1) || 1);

if (workers > 1 && cluster.isPrimary) {
  let stopping = false;
  const listening = new Set();
  cluster.on("listening", (worker) => listening.add(worker.id));
  cluster.on("exit", (worker, code) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // a worker that never started (bad settings) would only fail again: stop with its code
    if (!listening.has(worker.id)) process.exit(code || 1);
    console.error(`worker ${worker.process.pid} exited (${code}); starting another`);
    cluster.fork();
  });
  for (let i = 0; i < workers; i += 1) cluster.fork();
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    setTimeout(() => process.exit(0), 6_000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
} else {
  await startServer();
}

async function startServer() {
  sourceMapSupport.install();
  installGlobals({ nativeFetch: true });

  const buildPath = path.resolve(process.env.REMIX_BUILD ?? "build/index.js");
  const build = await import(url.pathToFileURL(buildPath).href);

  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use(
    build.publicPath,
    express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }),
  );
  // public/ never changes while the server runs: look its files up in a set instead of asking the
  // filesystem on every page request.
  const publicFiles = new Set(
    readdirSync("public", { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map(
        (entry) =>
          `/${path.relative("public", path.join(entry.parentPath ?? entry.path, entry.name))}`,
      )
      .filter((file) => !file.startsWith(`${build.publicPath}`)),
  );
  const publicStatic = express.static("public", { maxAge: "1h", index: false });
  app.use((req, res, next) => (publicFiles.has(req.path) ? publicStatic(req, res, next) : next()));
  // Writes from another site are refused before Remix sees them (its own guard would answer page
  // routes with a bare 500): the same rule as requireSameOrigin in app/http/http.server.ts.
  const appOrigin = process.env.APP_URL ? new URL(process.env.APP_URL).origin : null;
  const REFUSED = "Cross-origin request refused";
  app.use((req, res, next) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
    const origin = req.get("origin");
    const referer = req.get("referer");
    let source = null;
    if (origin) source = origin;
    else if (referer) {
      try {
        source = new URL(referer).origin;
      } catch {
        source = "invalid";
      }
    }
    const own = `${req.protocol}://${req.get("host")}`;
    if (source === null || source === own || source === appOrigin) return next();
    const accept = req.get("accept") ?? "";
    const json =
      req.path.startsWith("/api/") ||
      req.path.startsWith("/paypal/") ||
      (accept.includes("application/json") && !accept.includes("text/html"));
    res.status(403);
    return json ? res.json({ error: REFUSED, message: REFUSED }) : res.type("text").send(REFUSED);
  });
  app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV }));

  const port = Number(process.env.PORT || 3000);
  const server = process.env.HOST ? app.listen(port, process.env.HOST) : app.listen(port);
  server.on("listening", () => console.log(`BidYard listening on http://localhost:${port}`));
  server.keepAliveTimeout = 65_000;

  // On SIGTERM: stop taking connections, let the requests in flight finish (5 s at most), exit.
  function shutdown() {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  }
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}
