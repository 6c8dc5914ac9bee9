// The request log (docs/decisions/3002): one line per request, and its metric.
import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { workContext } from "../app/platform/jobs/context.server.ts";
import type { RequestNote as Note } from "../app/platform/request-notes.server.ts";
import { trustFly } from "./edge.ts";
import type { WorkerMetrics } from "./metrics.ts";

// The app notes what only it knows (the signed-in user, a client's mistake) on the request's entry
// here, found by a header the server sets on every request and the app reads
// (app/platform/request-notes.server.ts). A client's own value of the header is replaced.
const NOTES_KEY = Symbol.for("bidyard.requestNotes");
const NOTE_HEADER = "x-bidyard-request";
const shared = globalThis as typeof globalThis & { [NOTES_KEY]?: Map<string, Note> };
const notes = (shared[NOTES_KEY] ??= new Map());
const bootId = randomBytes(3).toString("hex");
let requestCounter = 0;

export function requestLog(
  log: Logger,
  workerMetrics: WorkerMetrics,
  routeIdOf: (pathname: string) => string,
  // both on, except on a bench server with one switched off (docs/decisions/3401)
  keep = { log: true, metrics: true },
) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const key = `${bootId}-${(requestCounter++).toString(36)}`;
    // Fly's proxy names each request; elsewhere the header is the client's own word
    const flyId = trustFly ? req.get("fly-request-id") : undefined;
    req.requestId = flyId || key;
    req.headers[NOTE_HEADER] = key;
    const note: Note = {};
    notes.set(key, note);
    res.on("close", () => {
      notes.delete(key);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const aborted = !res.writableFinished && !res.locals.eventStream;
      // an answer never started is logged as 499, nginx's "client closed request"
      const status = res.headersSent ? res.statusCode : 499;
      const route = routeIdOf(req.path);
      const line: Record<string, unknown> = {
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
      if (keep.log) log.info(line, "request");
      if (keep.metrics && !res.locals.eventStream)
        workerMetrics.observeRequest(req.method, route, status, ms);
    });
    // what the request queues carries its id to the job's log lines (docs/decisions/3561)
    workContext().run({ requestId: req.requestId }, next);
  };
}
