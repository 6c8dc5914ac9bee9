// Live streams during the soak: onlookers keep lot streams open on every server instance, as
// browsers do (reconnecting with Last-Event-ID when a stream ends), and record each lot state they
// are told. With SOAK_INSTANCES=2 the check is that a bid placed through one instance reaches the
// streams served by the other (docs/decisions/1801: NOTIFY crosses machines through the database).
import { sseParser } from "../tests/support/sse";
import type { Actor } from "./setup";

type Seen = Map<string, Set<number>>;

export class StreamWatch {
  /** instance → lot → every bid count a stream there was told */
  readonly seen = new Map<string, Seen>();
  readonly opened = new Map<string, number>();
  readonly refused = new Map<string, number>();
  private readonly controllers = new Set<AbortController>();
  private stopped = false;

  private note(instance: string, lot: string, bidCount: number) {
    let byLot = this.seen.get(instance);
    if (!byLot) this.seen.set(instance, (byLot = new Map()));
    let counts = byLot.get(lot);
    if (!counts) byLot.set(lot, (counts = new Set()));
    counts.add(bidCount);
  }

  /** Keeps one stream of `lot` open on `instance` as `who` until stop(). */
  follow(instance: string, who: Actor, lot: string) {
    let lastEventId = "";
    const run = async () => {
      while (!this.stopped) {
        const controller = new AbortController();
        this.controllers.add(controller);
        try {
          const response = await fetch(`${instance}/live/lots/${lot}`, {
            headers: {
              Cookie: who.cookie,
              Accept: "text/event-stream",
              ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}),
            },
            signal: controller.signal,
          });
          if (response.status !== 200) {
            this.refused.set(instance, (this.refused.get(instance) ?? 0) + 1);
            await response.arrayBuffer().catch(() => undefined);
          } else {
            this.opened.set(instance, (this.opened.get(instance) ?? 0) + 1);
            const parse = sseParser((event) => {
              if (event.id) lastEventId = event.id;
              if (event.event !== "lot" && event.event !== "snapshot") return;
              const data = JSON.parse(event.data) as { lotId: string; bidCount: number };
              this.note(instance, String(data.lotId), data.bidCount);
            });
            const decoder = new TextDecoder();
            for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
              parse(decoder.decode(chunk, { stream: true }));
          }
        } catch {
          // aborted at the end, or the connection dropped: reconnect as a browser does
        } finally {
          this.controllers.delete(controller);
        }
        if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    };
    void run();
  }

  stop() {
    this.stopped = true;
    for (const controller of this.controllers) controller.abort();
  }

  /** Bid counts told to the streams on `instance` for `lot`. */
  countsOn(instance: string, lot: string) {
    return this.seen.get(instance)?.get(lot) ?? new Set<number>();
  }
}

/**
 * The cap on one person's live streams, across instances: `cap` streams opened spread over the
 * instances, then one more on each must be refused with 429 and Retry-After; once one closes,
 * another opens (on a different instance than the one that closed). Answers what happened.
 */
export async function probeStreamCap(instances: string[], who: Actor, lot: string, cap: number) {
  const open: AbortController[] = [];
  const openOne = async (instance: string) => {
    const controller = new AbortController();
    const response = await fetch(`${instance}/live/lots/${lot}`, {
      headers: { Cookie: who.cookie, Accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (response.status === 200) open.push(controller);
    else await response.arrayBuffer().catch(() => undefined);
    return { status: response.status, retryAfter: response.headers.get("retry-after") };
  };
  try {
    const first = [];
    for (let i = 0; i < cap; i += 1) first.push(await openOne(instances[i % instances.length]));
    const beyond = [];
    for (const instance of instances) beyond.push(await openOne(instance));
    // give one back on the first instance, then the last instance may open one more
    open.shift()?.abort();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const afterClose = await openOne(instances[instances.length - 1]);
    const ok =
      first.every((a) => a.status === 200) &&
      beyond.every((a) => a.status === 429 && Number(a.retryAfter) > 0) &&
      afterClose.status === 200;
    return {
      ok,
      detail: `${first.filter((a) => a.status === 200).length} of ${cap} opened over ${instances.length} instance(s); one more on each: ${beyond.map((a) => `${a.status}${a.retryAfter ? ` (Retry-After ${a.retryAfter})` : ""}`).join(", ")}; after closing one: ${afterClose.status}`,
    };
  } finally {
    for (const controller of open) controller.abort();
  }
}
