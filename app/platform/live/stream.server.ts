// A server-sent event stream over the hub (docs/decisions/1801-live-updates-by-server-sent-events.md):
// better-sse frames the events and sends the heartbeats; this file adds what a marketplace needs
// around it: a cap on one person's open streams, events buffered while the first ones are read
// from the database, and a stream that fails cleanly (a 503, not a hung or silent request) while
// the hub's LISTEN connection is down, or ends when the hub can no longer vouch for it, so the page
// falls back to polling and later resumes from Last-Event-ID.
import { FetchConnection, Session } from "better-sse";
import { liveHub, type LotEvent } from "./hub.server";

/** Open streams one person may hold on one server process (tabs, the list and a lot page). */
export const MAX_STREAMS_PER_USER = 8;
export const streamSettings = {
  /** A comment line this often keeps proxies (Fly's idle out at 60 s) from closing the stream. */
  heartbeatMs: 15_000,
  /** How long the browser waits before reconnecting after the stream drops. */
  retryMs: 2_000,
};

/** One event to send; `lot` names the lot it brings up to date (replays and snapshots). */
export type OutgoingEvent = { id: string; name: string; data: string; lot?: string };

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

/** Open streams per user on this process (tests and the benchmark read it). */
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

const encoder = new TextEncoder();

/** A writer that never throws into the hub when the reader has gone (the stream is closed). */
class SafeFetchConnection extends FetchConnection {
  sendChunk = (chunk: string) => {
    const writer = (this as unknown as { writer: WritableStreamDefaultWriter<Uint8Array> }).writer;
    writer.write(encoder.encode(chunk)).catch(() => undefined);
  };
  cleanup = () => {
    const writer = (this as unknown as { writer: WritableStreamDefaultWriter<Uint8Array> }).writer;
    writer.close().catch(() => undefined);
  };
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
  // The check and the count are one step, before any await: simultaneous requests cannot all
  // pass it. The place is given back if the stream does not open.
  const held = openByUser.get(userId) ?? 0;
  if (held >= MAX_STREAMS_PER_USER) {
    return refuse(429, "Too many live streams are open. Close a tab and reload.", 30);
  }
  openByUser.set(userId, held + 1);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const left = (openByUser.get(userId) ?? 1) - 1;
    if (left > 0) openByUser.set(userId, left);
    else openByUser.delete(userId);
  };
  const unavailable = () => refuse(503, "Live updates are unavailable right now.", 30);

  const seen = new Map<string, bigint>();
  let pending: LotEvent[] | null = [];
  let session: Session | null = null;
  /** Set when the hub ends the stream (see LotSubscriber.end) or the reader goes. */
  let ended = false;
  // The session listens to this signal, not the request's: the hub can end the stream too.
  const ending = new AbortController();
  const end = () => {
    ended = true;
    // better-sse sets the session up on the next tick; ending it before would leave its timer
    if (!session || session.isConnected) ending.abort();
    else session.once("connected", () => ending.abort());
  };
  const send = (event: OutgoingEvent) => {
    if (session?.isConnected) session.push(event.data, event.name, event.id);
  };
  const deliver = (event: LotEvent) => {
    const id = BigInt(event.id);
    if (id <= (seen.get(event.lot) ?? 0n)) return;
    seen.set(event.lot, id);
    const outgoing = spec.format(event);
    if (outgoing) send(outgoing);
  };

  const hub = liveHub();
  let unsubscribe: () => void;
  try {
    // while the hub is down (not connected, or not caught up) this refuses: the page keeps polling
    await hub.start();
    unsubscribe = await hub.subscribe(spec.lots, {
      event: (event) => {
        if (pending) pending.push(event);
        else deliver(event);
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

  const connection = new SafeFetchConnection(
    new Request(request.url, { headers: request.headers, signal: ending.signal }),
    null,
    {
      headers: {
        // no-transform: the compression middleware leaves the stream alone (it would buffer it)
        "Cache-Control": "no-cache, no-transform",
        "X-Accel-Buffering": "no",
      },
    },
  );
  session = new Session(connection, {
    retry: streamSettings.retryMs,
    keepAlive: streamSettings.heartbeatMs,
    // each event's data is serialized once by the caller and shared by every stream
    serializer: (data) => data as string,
  });
  session.once("disconnected", close);
  // the session connects on the next tick; push once it has
  session.once("connected", () => {
    for (const event of first) {
      send(event);
      if (event.lot && BigInt(event.id) > (seen.get(event.lot) ?? 0n))
        seen.set(event.lot, BigInt(event.id));
    }
    const buffered = pending ?? [];
    pending = null;
    for (const event of buffered) deliver(event);
  });
  return session.getResponse() as Response;
}
