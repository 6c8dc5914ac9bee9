// Part of the production server (server/index.ts, docs/decisions/1102), in its own file so a test
// can drive it without starting the server.
//
// A live event stream (docs/decisions/1801) whose reader falls behind is cut, never buffered
// without bound: past 256 KiB unsent the connection closes and the browser reconnects with
// Last-Event-ID. Remix's Express adapter writes without waiting for 'drain', so only the socket
// knows how far behind a reader is.
//
// Which answers are watched is decided by the response (its Content-Type), not by the request's
// Accept header, which a client may leave out. The check is made once per answer, when its
// headers go out; only an event stream's writes are wrapped, every other answer keeps the plain
// write.
import type { IncomingMessage, ServerResponse } from "node:http";

/** A plain Node answer, or Express's (whose locals the request log reads). */
type Response = ServerResponse & { locals?: Record<string, unknown> };

export const STREAM_BACKLOG_LIMIT = 256 * 1024;

const EVENT_STREAM = /^\s*text\/event-stream/i;

export function dropSlowEventStreams(_req: IncomingMessage, res: Response, next: () => void) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (EVENT_STREAM.test(contentType(res, args))) {
      cutWhenBehind(res);
      // a stream idles between events by design: the server's idle timeout is not for it
      // (docs/decisions/3004), and the request log does not call it aborted when it ends
      res.socket?.setTimeout(0);
      if (res.locals) res.locals.eventStream = true;
    }
    return writeHead.apply(this, args as Parameters<Response["writeHead"]>);
  } as Response["writeHead"];
  next();
}

/** The answer's Content-Type: as set on it, or as given to writeHead (an object or an array). */
function contentType(res: Response, args: unknown[]) {
  let value: unknown = res.getHeader("content-type");
  const headers = args.find((arg) => arg !== null && typeof arg === "object") as
    unknown[] | Record<string, unknown> | undefined;
  if (Array.isArray(headers)) {
    // [[name, value], ...] or the raw [name, value, name, value, ...]
    const pairs = (
      Array.isArray(headers[0])
        ? headers
        : headers.flatMap((item, i) => (i % 2 === 0 ? [[item, headers[i + 1]]] : []))
    ) as [unknown, unknown][];
    for (const [name, given] of pairs) {
      if (String(name).toLowerCase() === "content-type") value = given;
    }
  } else if (headers) {
    for (const [name, given] of Object.entries(headers)) {
      if (name.toLowerCase() === "content-type") value = given;
    }
  }
  return String(value ?? "");
}

function cutWhenBehind(res: Response) {
  const write = res.write;
  res.write = function (this: Response, ...args: unknown[]) {
    if (res.writableLength > STREAM_BACKLOG_LIMIT) {
      res.destroy();
      return false;
    }
    return write.apply(this, args as Parameters<Response["write"]>);
  } as Response["write"];
}

/**
 * The production server's writer for a live stream whose response hands over its events
 * (docs/decisions/1803): the headers go out with no chunked framing (the body runs until the
 * connection closes, as a stream's does), then each event is one write to the socket, past the
 * response's own write path. A reader more than STREAM_BACKLOG_LIMIT behind is cut, as above.
 */
export function eventStreamWriter(res: Response) {
  (res as Response & { useChunkedEncodingByDefault: boolean }).useChunkedEncodingByDefault = false;
  res.flushHeaders();
  const socket = res.socket;
  return {
    write(text: string | Buffer) {
      if (!socket || socket.destroyed) return;
      if (socket.writableLength > STREAM_BACKLOG_LIMIT) {
        socket.destroy();
        return;
      }
      socket.write(text);
    },
    end() {
      res.end();
    },
  };
}
