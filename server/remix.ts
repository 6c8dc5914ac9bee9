// Between Express and the Remix build, through @remix-run/node's public helpers (docs/decisions/3103):
// the Fetch Request a handler takes, and the ways its Response goes out. Kept in place of
// @remix-run/express's adapter, which reads no body the edge has read, streams every answer and
// keeps each sent answer's timer (docs/decisions/3622).
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { eventStreamWriter } from "./event-streams.ts";

/**
 * The request as Remix sees it: the URL as the client asked for it (X-Forwarded-Host's port
 * first, as Remix's own adapter does), its headers, the body read and capped at the edge (or the
 * upload's stream), and a signal that aborts loaders and actions once the answer can no longer be
 * sent (the connection closed before it finished) and, once it is sent, lets go of what waits on
 * it.
 */
export function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const port = portOf(req.get("x-forwarded-host")) ?? portOf(req.get("host"));
  const url = `${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`;
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(name, value);
    else headers.set(name, values);
  }
  // Aborted when the response closes, sent or not (Remix's own Express adapter aborts only an
  // answer that was not sent, docs/decisions/3622): Remix keeps a 5-second timer per page and
  // data answer (its encoding of the loader data) that only the request's abort clears, and with
  // it the answer's data; left to run, every answer of the last 5 seconds stayed in memory
  // (docs/decisions/3570).
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers,
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    if (req.boundedBody) init.body = req.boundedBody as Uint8Array<ArrayBuffer>;
    else {
      init.body = createReadableStreamFromReadable(req);
      init.duplex = "half";
    }
  }
  return new Request(url, init);
}

function portOf(host: string | undefined) {
  const port = Number.parseInt(host?.split(":")[1] ?? "", 10);
  return Number.isSafeInteger(port) ? port : undefined;
}

/** The answer's status and headers, as Remix's adapter sets them. */
function statusAndHeaders(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
}

// A live event stream's response carries a sink (app/platform/live/stream.server.ts): its events
// are written to the socket as they come, not read through the response's web stream, which cost
// a few promises and copies per event per stream (docs/decisions/1803).
const EVENT_STREAM_SINK = Symbol.for("bidyard.eventStreamSink");
type EventStreamSink = { attach(write: (text: string) => void, end: () => void): void };

export async function sendResponse(res: ExpressResponse, response: Response) {
  const sink = (response as Response & { [EVENT_STREAM_SINK]?: EventStreamSink })[
    EVENT_STREAM_SINK
  ];
  if (sink) {
    // a stream idles between events by design (heartbeats every 15 s): no idle timeout for it
    res.locals.eventStream = true;
    res.socket?.setTimeout(0);
    statusAndHeaders(res, response);
    const writer = eventStreamWriter(res);
    sink.attach(writer.write, writer.end);
    return;
  }
  // JSON answers are read whole and sent with their length. Written as a stream, the compression
  // middleware never knew a body's size and gzipped even a 200-byte bid answer, and starting a
  // gzip stream cost more than the answer (docs/decisions/1907). With the length it leaves
  // answers under its 1 KB threshold alone. Our JSON answers are small and never streamed.
  // A page comes whole with its length (app/entry.server.tsx, docs/decisions/3570): it goes out
  // in one write too, not through a web stream's reads.
  const type = response.headers.get("content-type") ?? "";
  const whole = response.headers.has("content-length")
    ? /^text\/html\b/i.test(type)
    : /^application\/json\b/i.test(type);
  if (response.body !== null && whole) {
    const body = Buffer.from(await response.arrayBuffer());
    statusAndHeaders(res, response);
    res.setHeader("Content-Length", String(body.length));
    res.end(body);
    return;
  }
  statusAndHeaders(res, response);
  if (/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
