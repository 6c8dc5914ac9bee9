// Request bodies are capped before anything reads them (docs/decisions/1305, 3004): 1 MiB for
// forms and JSON (read here, at most that much, then handed to Remix), more for the routes that
// take files, which stream them and cap each file themselves. A bigger declared or streamed body
// is a 413 at once; one that does not arrive in time, a 408.
import type { NextFunction, Request, Response } from "express";
import { wantsJsonAnswer } from "../app/http/same-origin.ts";
import { httpTimeouts, UPLOAD_MIN_BYTES } from "./timeouts.ts";

const BODY_LIMIT = 1024 * 1024;
const UPLOAD_BODY_LIMIT = 110 * 1024 * 1024;
const UPLOAD_ROUTES =
  /^\/(kyc-verification|affiliate-registration|post-vehicle|vehicle\/[^/]+|api\/vehicles|storage\/.+)$/;
const TOO_LARGE = "The request body is too large";
const TOO_SLOW = "The request body took too long to arrive";

export function wantsJson(req: Request) {
  return wantsJsonAnswer(req.path, req.get("accept"));
}

function tooLarge(req: Request, res: Response) {
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

/**
 * A body that did not arrive in time: 408, then the connection is closed (a client this slow is
 * not given the ten seconds a 413 gets to read its answer).
 */
function tooSlow(req: Request, res: Response) {
  res.on("finish", () => setTimeout(() => req.socket?.destroy(), 1_000).unref());
  res.setHeader("Connection", "close");
  res.status(408);
  if (wantsJson(req)) res.json({ error: TOO_SLOW, message: TOO_SLOW });
  else res.type("text").send(TOO_SLOW);
}

/** The body, at most `limit` bytes of it (else null), or "slow" when it is not whole by `ms`. */
function readAtMost(req: Request, limit: number, ms: number) {
  return new Promise<Buffer | null | "slow">((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const stop = () => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", onError).pause();
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total <= limit) return void chunks.push(chunk);
      stop();
      resolve(null);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
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
function watchUploadPace(req: Request, res: Response, windowMs: number) {
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

/** Express middleware: caps the body (see the top of this file); a form or JSON body is read here. */
export async function boundedBody(req: Request, res: Response, next: NextFunction) {
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
