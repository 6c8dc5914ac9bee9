// A server-sent event stream over the hub (docs/decisions/1801-live-updates-by-server-sent-events.md):
// better-sse frames the events, each once for every stream that sends it
// (docs/decisions/1803-lean-event-streams.md); this file adds what a marketplace needs around it: a
// cap on one person's open streams, events buffered while the first ones are read from the
// database, heartbeats, and a stream that fails cleanly (a 503, not a hung or silent request)
// while the hub's LISTEN connection is down, or ends when the hub can no longer vouch for it, so
// the page falls back to polling and later resumes from Last-Event-ID.
import { EventBuffer } from "better-sse";
import { liveStreamsRefusedTotal, rateLimitedTotal } from "~/platform/metrics.server";
import { liveHub, type LotEvent } from "./hub.server";
import { releaseStreamLease, takeStreamLease } from "./leases.server";

/**
 * Open streams one person may hold across every process and machine (tabs, the list and a lot
 * page): counted by leases in PostgreSQL (docs/decisions/3008).
 */
export const MAX_STREAMS_PER_USER = 8;
export const streamSettings = {
  /** A comment line this often keeps proxies (Fly's idle out at 60 s) from closing the stream. */
  heartbeatMs: 15_000,
  /** How long the browser waits before reconnecting after the stream drops. */
  retryMs: 2_000,
};

/**
 * One event to send; `lot` names the lot it brings up to date (replays and snapshots). `frame` is
 * its SSE text, made on first send and kept on the object: an event shared by many streams (the
 * same lot, the same "you") is framed once.
 */
export type OutgoingEvent = {
  id: string;
  name: string;
  data: string;
  lot?: string;
  frame?: string;
};

export type StreamSpec = {
  request: Request;
  userId: string;
  lots: string[];
  /** What to send first: the replay after Last-Event-ID, or the lots' current state. */
  initial: (lastEventId: bigint | null) => Promise<OutgoingEvent[]>;
  /** An event as this viewer sees it, or null to skip it. */
  format: (event: LotEvent) => OutgoingEvent | null;
};

const openByUser = new Map<string, number>();

/** Open streams per user on this process (tests, the benchmark and the metrics read it). */
export function openStreams(userId?: string) {
  if (userId) return openByUser.get(userId) ?? 0;
  let total = 0;
  for (const count of openByUser.values()) total += count;
  return total;
}

/** Event ids are bigserial numbers; anything else in Last-Event-ID is ignored. */
export function parseEventId(value: string | null | undefined): bigint | null {
  if (!value || !/^\d{1,19}$/.test(value)) return null;
  return BigInt(value);
}

/** The event's SSE text (id, event and data lines), framed by better-sse once per event. */
export function frameOf(event: OutgoingEvent): string {
  if (event.frame === undefined) {
    event.frame = new EventBuffer({ serializer: (data) => data as string })
      .push(event.data, event.name, event.id)
      .read();
  }
  return event.frame;
}

const heartbeatFrame = new EventBuffer().comment().dispatch().read();

/**
 * What the production server (server/remix.ts) looks for on a stream's response: with it, the
 * server hands the stream a function that writes to the socket and skips the web-stream body
 * (docs/decisions/1803). Anywhere else the body is an ordinary ReadableStream.
 */
export const EVENT_STREAM_SINK = Symbol.for("bidyard.eventStreamSink");
export type EventStreamSink = {
  attach: (write: (text: string) => void, end: () => void) => void;
};

const encoder = new TextEncoder();

/**
 * The stream's body, written by whichever reader comes first: the server's direct writer, or a
 * reader of the ReadableStream (its first read). Until then what is sent waits in `queued`.
 */
class EventStreamBody {
  readonly stream: ReadableStream<Uint8Array>;
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  private reading = false;
  private write: ((text: string) => void) | null = null;
  private finish: (() => void) | null = null;
  private queued: string[] = [];
  private ended = false;

  constructor(private readonly onCancel: () => void) {
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        // with a high-water mark of 0 this is called only when someone reads
        pull: () => {
          if (this.reading || this.write) return;
          this.reading = true;
          if (this.queued.length) this.controller!.enqueue(encoder.encode(this.queued.join("")));
          this.queued = [];
          if (this.ended) this.closeReadable();
        },
        cancel: () => this.onCancel(),
      },
      { highWaterMark: 0 },
    );
  }

  readonly sink: EventStreamSink = {
    attach: (write, end) => {
      if (this.reading || this.write) return;
      this.write = write;
      this.finish = end;
      if (this.queued.length) write(this.queued.join(""));
      this.queued = [];
      if (this.ended) end();
    },
  };

  send(text: string) {
    if (this.ended) return;
    if (this.write) this.write(text);
    else if (this.reading) this.controller!.enqueue(encoder.encode(text));
    else this.queued.push(text);
  }

  end() {
    if (this.ended) return;
    this.ended = true;
    if (this.finish) this.finish();
    else if (this.reading) this.closeReadable();
  }

  private closeReadable() {
    try {
      this.controller!.close();
    } catch {
      // already closed or cancelled by its reader
    }
  }
}

function refuse(status: number, message: string, retryAfter?: number) {
  return new Response(message, {
    status,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
      ...(retryAfter ? { "Retry-After": String(retryAfter) } : {}),
    },
  });
}

export async function openEventStream(spec: StreamSpec): Promise<Response> {
  const { request, userId } = spec;
  if (request.signal.aborted) return refuse(499, "Closed");
  // The check and the count are one step in the database (take_stream_lease holds the person's
  // lock), so simultaneous requests, on any machine, cannot all pass it. The place is given back
  // if the stream does not open.
  let lease: string | null;
  try {
    lease = await takeStreamLease(userId, MAX_STREAMS_PER_USER);
  } catch {
    liveStreamsRefusedTotal.inc({ reason: "unavailable" });
    return refuse(503, "Live updates are unavailable right now.", 30);
  }
  if (lease === null) {
    liveStreamsRefusedTotal.inc({ reason: "cap" });
    rateLimitedTotal.inc({ limit: "live_streams" });
    return refuse(429, "Too many live streams are open. Close a tab and reload.", 30);
  }
  const held = openByUser.get(userId) ?? 0;
  openByUser.set(userId, held + 1);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    releaseStreamLease(lease);
    const left = (openByUser.get(userId) ?? 1) - 1;
    if (left > 0) openByUser.set(userId, left);
    else openByUser.delete(userId);
  };
  const unavailable = () => refuse(503, "Live updates are unavailable right now.", 30);

  const seen = new Map<string, bigint>();
  let pending: Array<[LotEvent, bigint]> | null = [];
  let body: EventStreamBody | null = null;
  /** Set when the hub ends the stream (see LotSubscriber.end) or the reader goes. */
  let ended = false;
  let closeStream = () => undefined as void;
  const end = () => {
    ended = true;
    closeStream();
  };
  const deliver = (event: LotEvent, id: bigint) => {
    if (id <= (seen.get(event.lot) ?? 0n)) return;
    seen.set(event.lot, id);
    const outgoing = spec.format(event);
    if (outgoing) body!.send(frameOf(outgoing));
  };

  const hub = liveHub();
  let unsubscribe: () => void;
  try {
    // while the hub is down (not connected, or not caught up) this refuses: the page keeps polling
    await hub.start();
    unsubscribe = await hub.subscribe(spec.lots, {
      event: (event, id) => {
        if (pending) pending.push([event, id]);
        else deliver(event, id);
      },
      end,
    });
  } catch {
    release();
    return unavailable();
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    release();
  };
  request.signal.addEventListener("abort", end, { once: true });
  if (ended || request.signal.aborted) {
    close();
    return request.signal.aborted ? refuse(499, "Closed") : unavailable();
  }

  // the hub's events wait in `pending` until the first ones are out (the hub has started these
  // lots, so what is read here covers every event it will not send)
  const lastEventId = parseEventId(request.headers.get("last-event-id"));
  let first: OutgoingEvent[] = [];
  try {
    first = await spec.initial(lastEventId);
  } catch (error) {
    close();
    throw error;
  }
  if (ended || request.signal.aborted) {
    close();
    return request.signal.aborted ? refuse(499, "Closed") : unavailable();
  }

  const stream = new EventStreamBody(end);
  body = stream;
  const heartbeat = setInterval(() => stream.send(heartbeatFrame), streamSettings.heartbeatMs);
  heartbeat.unref?.();
  closeStream = () => {
    clearInterval(heartbeat);
    request.signal.removeEventListener("abort", end);
    close();
    stream.end();
  };
  stream.send(retryFrame());
  for (const event of first) {
    stream.send(frameOf(event));
    if (!event.lot) continue;
    const id = BigInt(event.id);
    if (id > (seen.get(event.lot) ?? 0n)) seen.set(event.lot, id);
  }
  const buffered = pending ?? [];
  pending = null;
  for (const [event, id] of buffered) deliver(event, id);

  const response = new Response(stream.stream, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream",
      // no-transform: the compression middleware leaves the stream alone (it would buffer it)
      "Cache-Control": "private, no-cache, no-store, no-transform, must-revalidate, max-age=0",
      "X-Accel-Buffering": "no",
    },
  });
  Object.defineProperty(response, EVENT_STREAM_SINK, { value: stream.sink });
  return response;
}

function retryFrame() {
  return new EventBuffer().retry(streamSettings.retryMs).dispatch().read();
}
