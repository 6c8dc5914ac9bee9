// A worker: Express in front of the Remix build. Before Remix (decision records 1305 to 1308 in
// docs/decisions/): the request's log line and metric, the security headers every answer carries,
// the caller's address for the rate limits (Fly-Client-IP only behind Fly), the refusal of
// cross-origin writes, a cap on request bodies, and page slots; each route module guards its own
// loader and action against database outages and maintenance (docs/decisions/3611). Timeouts
// cut a slow client (headers, bodies, idle sockets; event streams exempt; docs/decisions/3004).
import { readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import url from "node:url";
import type { NextFunction, Request, Response } from "express";
import { installAblation } from "./ablation.ts";
import { boundedBody } from "./body-bounds.ts";
import { clientAddress, refuseCrossOriginWrites, securityHeaders } from "./edge.ts";
import { dropSlowEventStreams } from "./event-streams.ts";
import { createLog } from "./log.ts";
import { admitPages } from "./page-slots.ts";
import { regionRouting, type RegionEntry } from "./regions.ts";
import { sendResponse, toFetchRequest } from "./remix.ts";
import { requestLog } from "./request-log.ts";
import { routeIdMatcher } from "./route-ids.ts";
import { httpTimeouts } from "./timeouts.ts";

export async function startWorker() {
  const log = await createLog();
  // the bench's switches: empty unless the bench started this server (docs/decisions/3401)
  const off = installAblation();
  if (off.size) log.warn({ ablated: [...off] }, "bench ablation: pieces switched off");
  const on = (piece: string) => !off.has(piece);
  // Imported here, not at the top: the primary process only forks and watches its workers, and
  // not loading Express and Remix keeps its memory small (docs/decisions/1905).
  const [
    { createRequestHandler, broadcastDevReady },
    { default: compression },
    { default: express },
    { workerMetrics },
  ] = await Promise.all([
    import("@remix-run/node"),
    import("compression"),
    import("express"),
    import("./metrics.ts"),
  ]);
  // Node's own fetch, Request, Response, Headers, FormData and File serve the app: Remix's
  // installGlobals would replace them with an older undici's, whose fetch fails on Node 24
  // (docs/decisions/3101-node-24.md).
  const metrics = workerMetrics();

  const buildPath = path.resolve(process.env.REMIX_BUILD ?? "build/index.js");
  const build = await import(url.pathToFileURL(buildPath).href);

  const app = express();
  app.disable("x-powered-by");
  if (on("log") || on("metrics"))
    app.use(
      requestLog(log, metrics, routeIdMatcher(build), { log: on("log"), metrics: on("metrics") }),
    );
  if (on("headers")) app.use(securityHeaders);
  app.use(clientAddress);
  // The platform's health check, asked every few seconds, is answered here with the route's own
  // answer, logged and counted like any request, without the router (docs/decisions/3405).
  const health = build.entry.module as {
    healthAnswer?: () => Promise<{ status: number; body: string }>;
    HEALTH_HEADERS?: Record<string, string>;
  };
  if (health.healthAnswer && health.HEALTH_HEADERS) {
    const { healthAnswer, HEALTH_HEADERS } = health;
    app.get("/healthz", async (_req, res, next) => {
      try {
        const { status, body } = await healthAnswer();
        res.writeHead(status, { ...HEALTH_HEADERS, "Content-Length": Buffer.byteLength(body) });
        res.end(body);
      } catch (error) {
        next(error);
      }
    });
  }
  app.use(dropSlowEventStreams);
  // Live event streams are never compressed (they say no-transform): they skip the middleware,
  // whose wrapper would otherwise run on every event written (docs/decisions/1803).
  const compress = compression();
  if (on("compression"))
    app.use((req, res, next) =>
      req.path.startsWith("/live/") ? next() : compress(req, res, next),
    );
  app.use(
    build.publicPath,
    express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }),
  );
  // public/ never changes while the server runs: look its files up in a set instead of asking the
  // filesystem on every page request.
  const publicFiles = new Set(
    readdirSync("public", { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${path.relative("public", path.join(entry.parentPath, entry.name))}`)
      .filter((file) => !file.startsWith(`${build.publicPath}`)),
  );
  const publicStatic = express.static("public", { maxAge: "1h", index: false });
  app.use((req, res, next) => (publicFiles.has(req.path) ? publicStatic(req, res, next) : next()));
  if (on("cross-origin")) app.use(refuseCrossOriginWrites(process.env.APP_URL));
  // outside the primary region: replay to it, or read the replica (docs/decisions/3701)
  const regions = regionRouting(build, build.entry.module as RegionEntry, routeIdMatcher(build));
  app.use(regions.middleware);
  if (on("body-bounds")) app.use(boundedBody);
  // page requests a few at a time, so a crowd on the lists cannot starve the bids (2907)
  if (on("page-slots")) app.use(admitPages());
  const handleRequest = createRequestHandler(build, process.env.NODE_ENV);
  app.all("*", async (req, res, next) => {
    try {
      const response = await regions.answer(req, res, () =>
        handleRequest(toFetchRequest(req, res)),
      );
      if (response) await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  });
  // What reaches here is a body that broke off (the client went away: its request line says so)
  // or a bug (logged with its stack, in its one line).
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { code, message } = (error ?? {}) as { code?: string; message?: string };
    if (req.aborted || req.destroyed || code === "ECONNRESET" || message === "aborted") {
      res.destroy();
      return;
    }
    log.error({ err: error, req_id: req.requestId }, "request failed");
    if (res.headersSent) return void res.destroy();
    res.status(500).type("text").send("Unexpected Server Error");
  });

  const port = Number(process.env.PORT || 3000);
  const timeouts = httpTimeouts();
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // how often Node checks those two (its default, 30 s, would let a slow client run past them)
      connectionsCheckingInterval: Math.max(250, Math.min(timeouts.headersMs, 5_000) / 4),
    },
    app,
  );
  // A connection that sends and receives nothing for this long is closed (event streams, which
  // idle between events by design, are exempt: see sendResponse).
  server.timeout = timeouts.idleMs;
  // Longer than Fly's proxy keeps an idle connection (60 s), so the proxy closes first.
  server.keepAliveTimeout = 65_000;
  server.listen(port, process.env.HOST, () => {
    log.info({ port, timeouts }, `BidYard listening on http://localhost:${port}`);
    if (process.env.NODE_ENV === "development") broadcastDevReady(build);
  });

  // On SIGTERM: stop taking connections, let the requests in flight finish (5 s at most), exit.
  function shutdown() {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  }
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}
