// Reads a server-sent event stream the way a browser's EventSource does (fields, comments, the
// blank line that dispatches), so tests can wait for the events a page would see.
export type SseEvent = { id: string; event: string; data: string };

/** Splits SSE text into events; feed it chunks, it calls `onEvent` per dispatched event. */
export function sseParser(onEvent: (event: SseEvent) => void, onComment?: () => void) {
  let buffer = "";
  let current = { id: "", event: "", data: [] as string[] };
  return (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, "");
      buffer = buffer.slice(newline + 1);
      if (line === "") {
        if (current.data.length > 0 || current.event) {
          onEvent({
            id: current.id,
            event: current.event || "message",
            data: current.data.join("\n"),
          });
        }
        current = { id: current.id, event: "", data: [] };
        continue;
      }
      if (line.startsWith(":")) {
        onComment?.();
        continue;
      }
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") current.id = value;
      else if (field === "event") current.event = value;
      else if (field === "data") current.data.push(value);
    }
  };
}

/** A stream being read: its events so far, its heartbeats, and a wait for the next match. */
export class SseReader {
  readonly events: SseEvent[] = [];
  heartbeats = 0;
  closed = false;
  private waiters: Array<() => void> = [];

  constructor(body: ReadableStream<Uint8Array>) {
    const feed = sseParser(
      (event) => {
        this.events.push(event);
        this.wake();
      },
      () => {
        this.heartbeats += 1;
        this.wake();
      },
    );
    const decoder = new TextDecoder();
    const reader = body.getReader();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          feed(decoder.decode(value, { stream: true }));
        }
      } catch {
        // aborted
      } finally {
        this.closed = true;
        this.wake();
      }
    })();
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  /** Resolves once `test` holds (checked on every event, heartbeat and close; nothing else
   * changes what it reads), or fails at the deadline. */
  async until(
    test: (reader: SseReader) => boolean,
    what = "the expected events",
    timeoutMs = 15_000,
  ) {
    const deadline = Date.now() + timeoutMs;
    while (!test(this)) {
      if (Date.now() > deadline) {
        throw new Error(`stream: no ${what}; got ${JSON.stringify(this.events)}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The parsed data of the events named `name`. */
  data<T>(name: string): T[] {
    return this.events.filter((event) => event.event === name).map((e) => JSON.parse(e.data) as T);
  }
}
