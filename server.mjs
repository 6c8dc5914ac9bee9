// BidYard's production server: the Remix build behind Express, with long-lived caching for the
// fingerprinted assets and compression for what is worth compressing. No per-request access log
// (the platform's proxy logs requests; writing a line per request cost about a tenth of the CPU
// under load). WEB_CONCURRENCY (default 1) runs that many worker processes on one port, for
// machines with more than one core. See docs/decisions/1102-own-production-server.md.
// Before Remix (decision records 1305 to 1308 in docs/decisions/): the caller's address for the
// rate limits (Fly-Client-IP only behind Fly), a cap on request bodies, the security headers every
// answer carries, and the build's routes guarded against database outages and maintenance.
import cluster from "node:cluster";
import { readdirSync } from "node:fs";
import path from "node:path";
import url from "node:url";
import { dropSlowEventStreams, eventStreamWriter } from "./server-event-streams.mjs";
import { admitPages } from "./server-page-slots.mjs";

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
  // Several workers share one machine's memory: each gets a smaller young generation (2 MB
  // semi-spaces), which brings two workers and this process from about 355 MB to about 300 MB
  // under the bid load (docs/decisions/1909). One process keeps V8's default: pages render faster.
  const semiSpace = process.execArgv.some((arg) => arg.startsWith("--max-semi-space-size"));
  cluster.setupPrimary({
    execArgv: semiSpace ? process.execArgv : [...process.execArgv, "--max-semi-space-size=2"],
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
  // Imported here, not at the top: with WEB_CONCURRENCY > 1 the primary process only forks and
  // watches its workers, and not loading Express and Remix keeps its memory small
  // (docs/decisions/1905).
  const [{ default: remixExpress }, { createRequestHandler, installGlobals }, compressionModule] =
    await Promise.all([
      // The Express adapter's own request and response helpers (its package index only exports
      // the whole handler), so a body read and capped here can be handed to Remix.
      import("@remix-run/express/dist/server.js"),
      import("@remix-run/node"),
      import("compression"),
    ]);
  const { default: express } = await import("express");
  const { default: sourceMapSupport } = await import("source-map-support");
  const compression = compressionModule.default;
  const { createRemixRequest, sendRemixResponse } = remixExpress;
  sourceMapSupport.install();
  installGlobals({ nativeFetch: true });

  const buildPath = path.resolve(process.env.REMIX_BUILD ?? "build/index.js");
  const imported = await import(url.pathToFileURL(buildPath).href);
  const build = imported.entry.module.guardRoutes?.(imported) ?? imported;

  const app = express();
  app.disable("x-powered-by");
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
    const accept = req.get("accept") ?? "";
    const json =
      req.path.startsWith("/api/") ||
      req.path.startsWith("/paypal/") ||
      (accept.includes("application/json") && !accept.includes("text/html"));
    res.status(403);
    return json ? res.json({ error: REFUSED, message: REFUSED }) : res.type("text").send(REFUSED);
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
  if (req.path.startsWith("/api/") || (req.get("accept") ?? "").includes("application/json")) {
    res.json({ error: TOO_LARGE, message: TOO_LARGE });
  } else {
    res.type("text").send(TOO_LARGE);
  }
}

function readAtMost(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let total = 0;
    const onData = (chunk) => {
      total += chunk.length;
      if (total <= limit) return chunks.push(chunk);
      req.off("data", onData).off("end", onEnd).pause();
      resolve(null);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on("data", onData).on("end", onEnd).on("error", reject);
  });
}

async function boundedBody(req, res, next) {
  if (req.method === "GET" || req.method === "HEAD") return next();
  const upload = UPLOAD_ROUTES.test(req.path.replace(/\.data$/, ""));
  const limit = upload ? UPLOAD_BODY_LIMIT : BODY_LIMIT;
  if (Number(req.get("content-length") ?? 0) > limit) return tooLarge(req, res);
  if (upload) return next();
  try {
    const body = await readAtMost(req, limit);
    if (body === null) return tooLarge(req, res);
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
    return writeHead.apply(this, args);
  };
  next();
}
