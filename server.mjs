// BidYard's production server: the Remix build behind Express, with long-lived caching for the
// fingerprinted assets and compression for what is worth compressing. See
// docs/decisions/1102-own-production-server.md.
// Before Remix (decision records 1305 to 1308 in docs/decisions/): the caller's address for the
// rate limits (Fly-Client-IP only behind Fly), a cap on request bodies, the security headers every
// answer carries, and the build's routes guarded against database outages and maintenance.
//
// For the operator (docs/decisions/3002 to 3005): one JSON log line per request (server-log.mjs),
// Prometheus metrics on METRICS_PORT aggregated over the workers (server-metrics.mjs), timeouts
// that cut a slow client (headers, bodies, idle sockets; event streams exempt), and heap caps
// sized from the machine's memory (server-memory.mjs).
//
// The process started by the platform is always a small primary that loads no app code: it sizes
// and forks WEB_CONCURRENCY (default 1) workers, replaces one that dies, and serves the metrics.
// The workers serve HTTP.
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import url from "node:url";
import { dropSlowEventStreams, eventStreamWriter } from "./server-event-streams.mjs";
import { admitPages } from "./server-page-slots.mjs";
import { createLog, routeConsole } from "./server-log.mjs";
import { machineMemoryMb, memoryPlan } from "./server-memory.mjs";

const workers = Math.max(1, Number(process.env.WEB_CONCURRENCY ?? 1) || 1);

if (cluster.isPrimary) {
  await startPrimary();
} else {
  await startServer();
}

async function startPrimary() {
  const log = await createLog();
  routeConsole(log);
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
  const listening = new Set();
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

  let metricsServer = null;
  if (process.env.METRICS_PORT) {
    const { startMetricsServer } = await import("./server-metrics.mjs");
    // the site keeps serving without its metrics (a port already taken, say): said once, loudly
    metricsServer = await startMetricsServer({
      port: Number(process.env.METRICS_PORT),
      host: process.env.METRICS_HOST,
      plan,
      restarts: () => restarts,
      log,
    }).catch((error) => {
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

async function startServer() {
  const log = await createLog();
  routeConsole(log);
  // Imported here, not at the top: the primary process only forks and watches its workers, and
  // not loading Express and Remix keeps its memory small (docs/decisions/1905).
  const [
    { default: remixExpress },
    { createRequestHandler, installGlobals, broadcastDevReady },
    compressionModule,
    { default: routeMatching },
    { default: remixRoutes },
    metrics,
  ] = await Promise.all([
    // The Express adapter's own request and response helpers (its package index only exports
    // the whole handler), so a body read and capped here can be handed to Remix.
    import("@remix-run/express/dist/server.js"),
    import("@remix-run/node"),
    import("compression"),
    // Remix's own route matching (patched to keep its ranked table, record 1902), for the route
    // id on each request's log line and metric.
    import("@remix-run/server-runtime/dist/routeMatching.js"),
    import("@remix-run/server-runtime/dist/routes.js"),
    import("./server-metrics.mjs"),
  ]);
  const { default: express } = await import("express");
  const { default: sourceMapSupport } = await import("source-map-support");
  const compression = compressionModule.default;
  const { createRemixRequest, sendRemixResponse } = remixExpress;
  sourceMapSupport.install();
  installGlobals({ nativeFetch: true });
  const workerMetrics = metrics.workerMetrics();

  const buildPath = path.resolve(process.env.REMIX_BUILD ?? "build/index.js");
  const imported = await import(url.pathToFileURL(buildPath).href);
  const build = imported.entry.module.guardRoutes?.(imported) ?? imported;
  const routes = remixRoutes.createRoutes(build.routes);
  const routeIdOf = (pathname) => {
    const matches = routeMatching.matchServerRoutes(
      routes,
      pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/"),
      build.basename,
    );
    return matches ? matches[matches.length - 1].route.id : "none";
  };

  const app = express();
  app.disable("x-powered-by");
  app.use(requestLog(log, workerMetrics, routeIdOf));
  app.use(securityHeaders);
  app.use(clientAddress);
  app.use(dropSlowEventStreams);
  // Live event streams are never compressed (they say no-transform): they skip the middleware,
  // whose wrapper would otherwise run on every event written (docs/decisions/1803).
  const compress = compression();
  app.use((req, res, next) => (req.path.startsWith("/live/") ? next() : compress(req, res, next)));
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
    res.status(403);
    return wantsJson(req)
      ? res.json({ error: REFUSED, message: REFUSED })
      : res.type("text").send(REFUSED);
  });
  app.use(boundedBody);
  // page requests a few at a time, so a crowd on the lists cannot starve the bids (2907)
  app.use(admitPages());
  const handleRequest = createRequestHandler(build, process.env.NODE_ENV);
  app.all("*", async (req, res, next) => {
    try {
      let request = createRemixRequest(req, res);
      if (req.boundedBody) request = new Request(request, { body: req.boundedBody });
      const response = await handleRequest(request);
      if (response[EVENT_STREAM_SINK]) sendEventStream(res, response);
      else if (isWholeJson(response)) await sendWhole(res, response);
      else await sendRemixResponse(res, response);
    } catch (error) {
      next(error);
    }
  });
  // What reaches here is a body that broke off (the client went away: its request line says so)
  // or a bug (logged with its stack, in its one line).
  app.use((error, req, res, _next) => {
    if (
      req.aborted ||
      req.destroyed ||
      error?.code === "ECONNRESET" ||
      error?.message === "aborted"
    ) {
      res.destroy();
      return;
    }
    log.error({ err: error, req_id: req.requestId }, "request failed");
    if (res.headersSent) return res.destroy();
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
  // idle between events by design, are exempt: see sendEventStream).
  server.timeout = timeouts.idleMs;
  // Longer than Fly's proxy keeps an idle connection (60 s), so the proxy closes first.
  server.keepAliveTimeout = 65_000;
  server.listen(port, process.env.HOST, () => {
    log.info({ port, timeouts }, `BidYard listening on http://localhost:${port}`);
    if (process.env.NODE_ENV === "development") broadcastDevReady(imported);
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

/** True for calls that want JSON back: the same rule as wantsJson in app/http/http.server.ts. */
function wantsJson(req) {
  const accept = req.get("accept") ?? "";
  return (
    req.path.startsWith("/api/") ||
    req.path.startsWith("/paypal/") ||
    (accept.includes("application/json") && !accept.includes("text/html"))
  );
}

// ---- timeouts (docs/decisions/3004) ------------------------------------------------------------

function numberSetting(name, fallback) {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * Headers must arrive within HTTP_HEADERS_TIMEOUT_MS; a form or JSON body (at most 1 MiB, read
 * here) within HTTP_BODY_TIMEOUT_MS of the headers; an upload must keep arriving (at least
 * UPLOAD_MIN_BYTES in every HTTP_BODY_TIMEOUT_MS while the route is reading) and be whole within
 * HTTP_REQUEST_TIMEOUT_MS; a socket silent both ways for HTTP_IDLE_TIMEOUT_MS is closed.
 */
function httpTimeouts() {
  return {
    headersMs: numberSetting("HTTP_HEADERS_TIMEOUT_MS", 20_000),
    bodyMs: numberSetting("HTTP_BODY_TIMEOUT_MS", 30_000),
    idleMs: numberSetting("HTTP_IDLE_TIMEOUT_MS", 60_000),
    requestMs: numberSetting("HTTP_REQUEST_TIMEOUT_MS", 600_000),
  };
}
const UPLOAD_MIN_BYTES = 16 * 1024;

// ---- the request log (docs/decisions/3002) ----------------------------------------------------

// The app notes what only it knows (the signed-in user, a client's mistake) on the request's entry
// here, found by a header the server sets on every request and the app reads
// (app/platform/request-notes.server.ts). A client's own value of the header is replaced.
const NOTES_KEY = Symbol.for("bidyard.requestNotes");
const NOTE_HEADER = "x-bidyard-request";
const notes = (globalThis[NOTES_KEY] ??= new Map());
const bootId = randomBytes(3).toString("hex");
let requestCounter = 0;

function requestLog(log, workerMetrics, routeIdOf) {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const key = `${bootId}-${(requestCounter++).toString(36)}`;
    // Fly's proxy names each request; elsewhere the header is the client's own word
    const flyId = trustFly ? req.get("fly-request-id") : undefined;
    req.requestId = flyId || key;
    req.headers[NOTE_HEADER] = key;
    const note = {};
    notes.set(key, note);
    res.on("close", () => {
      notes.delete(key);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const aborted = !res.writableFinished && !res.locals.eventStream;
      // an answer never started is logged as 499, nginx's "client closed request"
      const status = res.headersSent ? res.statusCode : 499;
      const route = routeIdOf(req.path);
      const line = {
        req_id: req.requestId,
        method: req.method,
        route,
        status,
        ms: Math.round(ms * 10) / 10,
      };
      if (note.userId) line.user = note.userId;
      if (aborted) line.aborted = true;
      if (note.problem) line.problem = note.problem;
      if (res.locals.eventStream) line.stream = true;
      log.info(line, "request");
      if (!res.locals.eventStream) workerMetrics.observeRequest(req.method, route, status, ms);
    });
    next();
  };
}

// JSON answers are read whole and sent with their length. Remix's adapter writes a body as it
// streams, so the compression middleware never knew a body's size and gzipped even a 200-byte bid
// answer, and starting a gzip stream cost more than the answer (docs/decisions/1907). With the
// length it leaves answers under its 1 KB threshold alone. Our JSON answers are small and never
// streamed.
function isWholeJson(response) {
  return (
    response.body !== null &&
    !response.headers.has("content-length") &&
    /^application\/json\b/i.test(response.headers.get("content-type") ?? "")
  );
}

async function sendWhole(res, response) {
  const body = Buffer.from(await response.arrayBuffer());
  statusAndHeaders(res, response);
  res.setHeader("Content-Length", String(body.length));
  res.end(body);
}

/** The answer's status and headers, set as Remix's adapter sets them. */
function statusAndHeaders(res, response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
}

// A live event stream's response carries a sink (app/platform/live/stream.server.ts): its events
// are written to the socket as they come, not read through the response's web stream, which cost
// a few promises and copies per event per stream (docs/decisions/1803).
const EVENT_STREAM_SINK = Symbol.for("bidyard.eventStreamSink");

function sendEventStream(res, response) {
  // a stream idles between events by design (heartbeats every 15 s): no idle timeout for it
  res.locals.eventStream = true;
  res.socket?.setTimeout(0);
  statusAndHeaders(res, response);
  const writer = eventStreamWriter(res);
  response[EVENT_STREAM_SINK].attach(writer.write, writer.end);
}

// Fly's proxy sets Fly-Client-IP (and overwrites whatever a client sent); anywhere else the
// header is the client's own word. The app reads the address from that header, so it is set here
// for every request: Fly's value only when the server runs behind Fly, else the socket's address.
const trustFly =
  process.env.TRUST_PROXY === "fly" ||
  (process.env.TRUST_PROXY === undefined && Boolean(process.env.FLY_APP_NAME));

function clientAddress(req, _res, next) {
  const fromFly = trustFly ? req.get("fly-client-ip")?.trim() : undefined;
  const socket = (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
  req.headers["fly-client-ip"] = fromFly || socket || "unknown";
  next();
}

// Request bodies are capped before anything reads them: 1 MiB for forms and JSON (read here, at
// most that much, then handed to Remix), more for the routes that take files, which stream them
// and cap each file themselves. A bigger declared or streamed body is a 413 at once.
const BODY_LIMIT = 1024 * 1024;
const UPLOAD_BODY_LIMIT = 110 * 1024 * 1024;
const UPLOAD_ROUTES =
  /^\/(kyc-verification|affiliate-registration|post-vehicle|vehicle\/[^/]+|api\/vehicles|storage\/.+)$/;
const TOO_LARGE = "The request body is too large";

function tooLarge(req, res) {
  // The rest of the body is discarded (never kept) for ten seconds and then the connection is
  // cut: closing at once, with the client still sending, can reset the connection before the
  // client has read this answer. Two seconds proved too short for a client that is slow to read
  // (a phone's uplink, or a busy machine), which then saw a broken pipe instead of the 413.
  res.on("finish", () => {
    req.resume();
    setTimeout(() => req.socket.destroy(), 10_000).unref();
  });
  res.status(413);
  if (wantsJson(req)) res.json({ error: TOO_LARGE, message: TOO_LARGE });
  else res.type("text").send(TOO_LARGE);
}

const TOO_SLOW = "The request body took too long to arrive";

/**
 * A body that did not arrive in time: 408, then the connection is closed (a client this slow is
 * not given the ten seconds a 413 gets to read its answer).
 */
function tooSlow(req, res) {
  res.on("finish", () => setTimeout(() => req.socket?.destroy(), 1_000).unref());
  res.setHeader("Connection", "close");
  res.status(408);
  if (wantsJson(req)) res.json({ error: TOO_SLOW, message: TOO_SLOW });
  else res.type("text").send(TOO_SLOW);
}

/** The body, at most `limit` bytes of it (else null), or "slow" when it is not whole by `ms`. */
function readAtMost(req, limit, ms) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let total = 0;
    const stop = () => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", onError).pause();
    };
    const onData = (chunk) => {
      total += chunk.length;
      if (total <= limit) return chunks.push(chunk);
      stop();
      resolve(null);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error) => {
      stop();
      reject(error);
    };
    const timer = setTimeout(() => {
      stop();
      resolve("slow");
    }, ms);
    req.on("data", onData).on("end", onEnd).on("error", onError);
  });
}

/**
 * An upload streams to its route, which reads it at its own pace: it is cut when fewer than
 * UPLOAD_MIN_BYTES arrive in a body-timeout window while the route is waiting for more (its
 * buffer not full), i.e. when the client, not the route, is the slow one.
 */
function watchUploadPace(req, res, windowMs) {
  const socket = req.socket;
  let last = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) return clearInterval(timer);
    const waitingForClient = req.readableLength < req.readableHighWaterMark;
    if (waitingForClient && socket.bytesRead - last < UPLOAD_MIN_BYTES) {
      clearInterval(timer);
      if (!res.headersSent) tooSlow(req, res);
      else socket.destroy();
      return;
    }
    last = socket.bytesRead;
  }, windowMs);
  // kept after the answer too: a route that answers early (a 401, say) leaves the rest of the
  // body to arrive, and a client trickling it would hold the connection
  timer.unref();
}

async function boundedBody(req, res, next) {
  if (req.method === "GET" || req.method === "HEAD") return next();
  const upload = UPLOAD_ROUTES.test(req.path.replace(/\.data$/, ""));
  const limit = upload ? UPLOAD_BODY_LIMIT : BODY_LIMIT;
  if (Number(req.get("content-length") ?? 0) > limit) return tooLarge(req, res);
  const { bodyMs } = httpTimeouts();
  if (upload) {
    watchUploadPace(req, res, bodyMs);
    return next();
  }
  try {
    const body = await readAtMost(req, limit, bodyMs);
    if (body === null) return tooLarge(req, res);
    if (body === "slow") return tooSlow(req, res);
    req.boundedBody = body;
    next();
  } catch (error) {
    next(error);
  }
}

// Pages get their own Content-Security-Policy (with a nonce) from the app; every other answer
// (JSON, CSV, stored files, photos, plain-text errors, assets) gets one that runs nothing and may
// not be framed, and all of them nosniff. Set just before the headers go out, so a header the app
// chose wins.
const isProduction = process.env.NODE_ENV === "production";
const DEFAULT_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "sandbox; default-src 'none'; frame-ancestors 'none'",
  ...(isProduction ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
};

function securityHeaders(_req, res, next) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    for (const [name, value] of Object.entries(DEFAULT_HEADERS)) {
      if (!res.hasHeader(name)) res.setHeader(name, value);
    }
    // Every 429 says when to come back (docs/decisions/3006): the limits set their own wait; an
    // answer that lost it on the way (a page's error boundary drops a thrown answer's headers)
    // gets a minute.
    const status = typeof args[0] === "number" ? args[0] : res.statusCode;
    if (status === 429 && !res.hasHeader("retry-after")) res.setHeader("Retry-After", "60");
    return writeHead.apply(this, args);
  };
  next();
}
