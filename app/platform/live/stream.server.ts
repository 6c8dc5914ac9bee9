// A server-sent event stream over the hub (docs/decisions/1801-live-updates-by-server-sent-events.md):
// better-sse frames the events, each once for every stream that sends it
// (docs/decisions/1803-lean-event-streams.md); this file adds what a marketplace needs around it: a
// cap on one person's open streams, events buffered while the first ones are read from the
// database, heartbeats, and a stream that fails cleanly (a 503, not a hung or silent request)
// while the hub's LISTEN connection is down, or ends when the hub can no longer vouch for it, so
// the page falls back to polling and later resumes from Last-Event-ID.
import { EventBuffer } from "better-sse";
import { liveStreamsRefusedTotal, rateLimitedTotal } from "~/platform/metrics.server";
import { liveHub, type LotEvent, type LotSubscriber } from "./hub.server";
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

/** A stream's first events, and what they cover. */
export type FirstEvents = {
  events: OutgoingEvent[];
  /**
   * Each lot's newest event id as the read that found `events` saw it (a lot not named: 0): the
   * events bring the browser up to it, and a lot nobody here followed yet starts there in the hub.
   */
  newest: Map<string, bigint>;
};

export type StreamSpec = {
  request: Request;
  userId: string;
  lots: string[];
  /**
   * What to send first: the replay after Last-Event-ID, or the lots' current state, from the
   * primary, with each lot's newest event id read in the same statement. It is sent as soon as
   * the stream listens, alongside the lease (docs/decisions/3721).
   */
  initial: (lastEventId: bigint | null) => Promise<FirstEvents>;
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
  const unavailable = () => refuse(503, "Live updates are unavailable right now.", 30);
  // The lease, the lots' start in the hub and the first events overlap, so a stream far from the
  // primary opens in one round trip, not three (docs/decisions/3721). The lease's check and count
  // are one step in the database (take_stream_lease holds the person's lock), so simultaneous
  // requests, on any machine, cannot all pass it. The place is given back if the stream does not
  // open. (undefined: the lease could not be taken.)
  const leasing = takeStreamLease(userId, MAX_STREAMS_PER_USER).catch(() => undefined);

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
  const listener: LotSubscriber = {
    event: (event, id) => {
      if (pending) pending.push([event, id]);
      else deliver(event, id);
    },
    end,
  };

  // The hub's events wait in `pending` until the first ones are out. The stream listens before
  // its first read is sent, and a lot nobody here followed yet starts at the newest event that
  // read saw, so what the read covers and what the hub sends meet with no gap (record 3721);
  // `seen` drops what both bring.
  const lastEventId = parseEventId(request.headers.get("last-event-id"));
  const hub = liveHub();
  let unsubscribe: () => void;
  let reading: Promise<FirstEvents>;
  try {
    // while the hub is down (not connected, or not caught up) this refuses: the page keeps polling
    await hub.start();
    const listening = hub.listen(spec.lots, listener);
    if (listening) {
      unsubscribe = listening.unsubscribe;
      // (even one that throws at once settles the lots' start)
      reading = Promise.resolve(lastEventId).then((id) => spec.initial(id));
      reading.then(
        (first) => listening.start(first.newest),
        () => listening.start(null),
      );
    } else {
      // a lot is being started for another stream: wait for its start, then read (a round trip
      // more, only when two streams of a lot open here at once)
      unsubscribe = await hub.subscribe(spec.lots, listener);
      reading = spec.initial(lastEventId);
    }
  } catch {
    const lease = await leasing;
    if (lease) releaseStreamLease(lease);
    return unavailable();
  }
  const [lease, read] = await Promise.all([
    leasing,
    reading.then(
      (first) => ({ first, error: null }),
      (error: unknown) => ({ first: null, error }),
    ),
  ]);
  if (lease === undefined) {
    unsubscribe();
    liveStreamsRefusedTotal.inc({ reason: "unavailable" });
    return unavailable();
  }
  if (lease === null) {
    unsubscribe();
    liveStreamsRefusedTotal.inc({ reason: "cap" });
    rateLimitedTotal.inc({ limit: "live_streams" });
    return refuse(429, "Too many live streams are open. Close a tab and reload.", 30);
  }
  const held = openByUser.get(userId) ?? 0;
  openByUser.set(userId, held + 1);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    releaseStreamLease(lease);
    const left = (openByUser.get(userId) ?? 1) - 1;
    if (left > 0) openByUser.set(userId, left);
    else openByUser.delete(userId);
  };
  if (!read.first) {
    close();
    throw read.error;
  }
  request.signal.addEventListener("abort", end, { once: true });
  if (ended || request.signal.aborted) {
    close();
    return request.signal.aborted ? refuse(499, "Closed") : unavailable();
  }
  const first = read.first;

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
  for (const event of first.events) {
    stream.send(frameOf(event));
    if (!event.lot) continue;
    const id = BigInt(event.id);
    if (id > (seen.get(event.lot) ?? 0n)) seen.set(event.lot, id);
  }
  // the read covers each lot up to its newest event, sent or not (a replay with nothing new)
  for (const [lot, id] of first.newest) {
    if (id > (seen.get(lot) ?? 0n)) seen.set(lot, id);
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
