// One LISTEN connection per server process, fanning lot events out to this process's open streams
// (docs/decisions/1801-live-updates-by-server-sent-events.md, "Revised").
//
// What the hub relies on: one lot's events are in id order. The trigger writes a lot's event while
// its UPDATE holds the lot's row lock, so a later event of the same lot takes its id, and commits,
// after the earlier one. Events of different lots commit out of id order, so every position the hub
// keeps is per lot, never one id for everything.
//
// Its health: `connected` is true only while the LISTEN connection is up and caught up. While it
// is not, new streams are refused (the page keeps polling); if it stays down past a grace period,
// or the hub cannot tell what was missed, the open streams are ended so the browsers fall back to
// polling and later resume from Last-Event-ID, which replays from lot_events.
import createSubscriber, { type Subscriber } from "pg-listen";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { env } from "~/platform/env.server";
import { log } from "~/platform/log.server";

export const LOT_EVENTS_CHANNEL = "lot_events";

/** A row of lot_events as the trigger sends it (ids as text: bigint). */
export type LotEvent = {
  id: string;
  lot: string;
  price: string;
  count: number;
  endsAt: string;
  status: string;
  leader: string | null;
  previous: string | null;
};

/** One open stream as the hub sees it. */
export type LotSubscriber = {
  /**
   * An event of one of its lots; each lot's events come in id order, each once. `id` is its id as
   * a number, parsed once for every subscriber.
   */
  event: (event: LotEvent, id: bigint) => void;
  /**
   * The hub can no longer vouch for what it sends (its connection is down or it lost track):
   * end the stream, so the browser polls and later resumes from Last-Event-ID.
   */
  end: () => void;
};

type Group = {
  subscribers: Set<LotSubscriber>;
  /** The newest event of the lot handed out; null until the lot's start is read from lot_events. */
  lastId: bigint | null;
  /** Events that came before lastId was known (handed out, newer than it, once it is). */
  early: LotEvent[];
  /** Settles once lastId is known (rejects if it could not be read). */
  ready: Promise<void>;
};

/** The columns of lot_events in the LotEvent shape (for replays and catch-up). */
export const LOT_EVENT_COLUMNS = `id::text AS id, lot_id::text AS lot, current_bid::text AS price,
  bid_count AS count, ends_at AS "endsAt", status, high_bidder_id AS leader,
  previous_bidder_id AS previous`;

/** The hub's timings and sizes (tests shorten them). */
export const hubSettings = {
  /**
   * How long open streams stay open while the LISTEN connection is being restored. A short blip
   * (a backend cut, a fast database restart) is caught up without the browsers noticing; past this
   * the streams end and the pages poll, as they would have done before streams existed.
   */
  downGraceMs: 15_000,
  /** Rows per catch-up query. */
  catchUpPageSize: 1_000,
  /**
   * The most rows one catch-up hands out. Beyond that the open streams are ended instead: each
   * browser's own Last-Event-ID replay (or snapshot) is cheaper than fanning out a backlog.
   */
  catchUpLimit: 10_000,
  /** Backoff between fresh connections after one failed or pg-listen gave up. */
  retryMinMs: 1_000,
  retryMaxMs: 30_000,
};

export class LiveHub {
  private readonly groups = new Map<string, Group>();
  private subscriber: Subscriber | null = null;
  private starting: Promise<void> | null = null;
  /** Up and caught up: new streams may open. */
  private up = false;
  /**
   * Notifications held while the connection is being restored and caught up (null when not):
   * handed out after the catch-up, so a newer notification never overtakes an older missed event.
   */
  private held: LotEvent[] | null = null;
  /** Bumped when a catch-up in flight must stop (the connection was lost again, or torn down). */
  private generation = 0;
  private downTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private closed = false;

  constructor(private readonly databaseUrl: string) {}

  /** True while the LISTEN connection is up and has caught up with what it missed. */
  get connected() {
    return this.up;
  }

  /**
   * Resolves once the hub is up. Rejects at once while it is restoring its connection or waiting
   * to try again, so a stream is refused (503: the page keeps polling) rather than opened deaf.
   */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(new Error("live hub: stopped"));
    if (this.up) return Promise.resolve();
    if (this.starting) return this.starting;
    if (this.subscriber || this.retryTimer) {
      return Promise.reject(new Error("live hub: the LISTEN connection is down"));
    }
    this.starting = this.connect().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async connect() {
    const subscriber = createSubscriber(
      { connectionString: this.databaseUrl },
      {
        // keep trying for as long as it takes, backing off to 2 s between attempts
        retryLimit: Infinity,
        retryTimeout: 0,
        retryInterval: (attempt) => Math.min(2_000, 100 * 2 ** attempt),
        paranoidChecking: 10_000,
      },
    );
    subscriber.notifications.on(LOT_EVENTS_CHANNEL, (event: LotEvent) =>
      this.receive(subscriber, event),
    );
    subscriber.events.on("error", (error: Error) => this.failed(subscriber, error));
    subscriber.events.on("reconnect", () => this.lost(subscriber));
    subscriber.events.on("connected", () => this.restored(subscriber));
    this.subscriber = subscriber;
    try {
      await subscriber.connect();
      await subscriber.listenTo(LOT_EVENTS_CHANNEL);
      if (this.closed) throw new Error("live hub: stopped");
    } catch (error) {
      if (this.subscriber === subscriber) await this.tearDown();
      else await subscriber.close().catch(() => undefined);
      this.scheduleRetry();
      throw error;
    }
    this.failures = 0;
    // lost again already: its "connected" will catch up and go live (restored)
    if (this.held === null) this.up = true;
  }

  /**
   * Listens to these lots; resolves, once each lot's start is known, to the function that stops
   * listening. Rejects when the hub is not up or a lot's start cannot be read.
   *
   * A lot nobody here watched yet starts at its newest committed event. Every event of it after
   * that commits later and is notified to this connection; the stream reads its first state only
   * after this resolves, so it covers everything up to here.
   */
  async subscribe(lots: string[], subscriber: LotSubscriber): Promise<() => void> {
    if (!this.up) throw new Error("live hub: the LISTEN connection is down");
    const fresh: Array<[string, Group]> = [];
    const waits: Promise<void>[] = [];
    for (const lot of lots) {
      let group = this.groups.get(lot);
      if (!group) {
        group = { subscribers: new Set(), lastId: null, early: [], ready: Promise.resolve() };
        this.groups.set(lot, group);
        fresh.push([lot, group]);
      } else if (group.lastId === null) {
        waits.push(group.ready);
      }
      group.subscribers.add(subscriber);
    }
    if (fresh.length > 0) {
      const ready = this.startGroups(fresh);
      for (const [, group] of fresh) group.ready = ready;
      waits.push(ready);
    }
    const unsubscribe = () => this.unsubscribe(lots, subscriber);
    try {
      await Promise.all(waits);
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  /**
   * Listens to these lots from now on, for a stream that reads their first state itself right
   * after this returns, in one statement with each lot's newest event id (docs/decisions/3721): a
   * lot nobody here watched yet starts at the newest id that read saw, given by `start` (null when
   * the read failed: the lots are dropped, as when the hub cannot read a start itself). So the
   * stream's open costs that one read, not a read of the hub's own before it.
   *
   * Gap-free: the stream is registered before its read is sent, so every event committed after
   * the read's snapshot is notified after this, and handed to it if newer than the lot's start;
   * that start is the read's own newest id (a fresh lot), or an event committed before the read
   * (a lot already followed here), so the read covers every event not handed out.
   *
   * Returns null, changing nothing, when a lot is still being started for another stream (its
   * start may come from a read older than this stream's): then `subscribe`, which waits for it.
   * Throws when the hub is not up. `start` must be called once the read settles.
   */
  listen(
    lots: string[],
    subscriber: LotSubscriber,
  ): { unsubscribe: () => void; start: (newest: Map<string, bigint> | null) => void } | null {
    if (!this.up) throw new Error("live hub: the LISTEN connection is down");
    if (lots.some((lot) => this.groups.get(lot)?.lastId === null)) return null;
    const fresh: Array<[string, Group]> = [];
    let settle = (_newest: Map<string, bigint> | null) => undefined as void;
    const ready = new Promise<void>((resolve, reject) => {
      settle = (newest) => {
        if (newest) {
          this.started(fresh, newest);
          resolve();
        } else {
          this.dropFresh(fresh);
          reject(new Error("live hub: the lots' start was not read"));
        }
      };
    });
    ready.catch(() => undefined);
    for (const lot of lots) {
      let group = this.groups.get(lot);
      if (!group) {
        group = { subscribers: new Set(), lastId: null, early: [], ready };
        this.groups.set(lot, group);
        fresh.push([lot, group]);
      }
      group.subscribers.add(subscriber);
    }
    let settled = false;
    return {
      unsubscribe: () => this.unsubscribe(lots, subscriber),
      start: (newest) => {
        if (settled) return;
        settled = true;
        settle(newest);
      },
    };
  }

  private unsubscribe(lots: string[], subscriber: LotSubscriber) {
    for (const lot of lots) {
      const group = this.groups.get(lot);
      if (!group) continue;
      group.subscribers.delete(subscriber);
      if (group.subscribers.size === 0) this.groups.delete(lot);
    }
  }

  /** Reads where each new group starts: its lot's newest event, or 0 when it has none. */
  private async startGroups(fresh: Array<[string, Group]>) {
    let rows: Array<{ lot: string; id: string }>;
    try {
      rows = await sequelize.query<{ lot: string; id: string }>(
        `SELECT lot::text AS lot,
                coalesce((SELECT max(id) FROM lot_events WHERE lot_id = lot), 0)::text AS id
           FROM unnest(ARRAY[:lots]::bigint[]) AS lot`,
        {
          replacements: { lots: fresh.map(([lot]) => lot) },
          type: QueryTypes.SELECT,
          // the primary, where this hub listens: a replica behind it would start the lots late
          useMaster: true,
        },
      );
    } catch (error) {
      this.dropFresh(fresh);
      throw error;
    }
    this.started(fresh, new Map(rows.map((row) => [row.lot, BigInt(row.id)])));
  }

  /** The new groups' starts are known (0 for a lot not given): hands out what came meanwhile. */
  private started(fresh: Array<[string, Group]>, start: Map<string, bigint>) {
    for (const [lot, group] of fresh) {
      group.lastId = start.get(lot) ?? 0n;
      const early = group.early;
      group.early = [];
      for (const event of early) this.handOut(group, event);
    }
  }

  /** Without a start a group cannot tell an old event from a new one: drop it. */
  private dropFresh(fresh: Array<[string, Group]>) {
    for (const [lot, group] of fresh) {
      if (this.groups.get(lot) === group) this.groups.delete(lot);
    }
  }

  /** Open subscriptions (one per stream and lot), for the benchmark and tests. */
  get listenerCount() {
    let count = 0;
    for (const group of this.groups.values()) count += group.subscribers.size;
    return count;
  }

  private receive(subscriber: Subscriber, event: LotEvent) {
    if (subscriber !== this.subscriber) return;
    if (this.held) this.held.push(event);
    else this.dispatch(event);
  }

  /**
   * Hands an event to its lot's subscribers, unless it is not newer than the lot's last one (the
   * catch-up and a notification both brought it, or it was committed before the group started).
   */
  dispatch(event: LotEvent) {
    const group = this.groups.get(event.lot);
    if (group) this.handOut(group, event);
  }

  private handOut(group: Group, event: LotEvent) {
    if (group.lastId === null) {
      group.early.push(event);
      return;
    }
    const id = BigInt(event.id);
    if (id <= group.lastId) return;
    group.lastId = id;
    for (const subscriber of group.subscribers) {
      try {
        subscriber.event(event, id);
      } catch (error) {
        log().error({ err: error }, "live listener failed");
      }
    }
  }

  /** pg-listen lost the connection and is reconnecting ("reconnect", once per attempt). */
  private lost(subscriber: Subscriber) {
    if (subscriber !== this.subscriber) return;
    if (this.up) log().error({}, "live hub: LISTEN connection lost; reconnecting");
    this.up = false;
    // a catch-up in flight stops; the next one starts from where the groups now are
    this.generation += 1;
    this.held ??= [];
    this.downTimer ??= setTimeout(() => {
      this.downTimer = null;
      log().error(
        { down_ms: hubSettings.downGraceMs },
        "live hub: LISTEN connection down too long; ending the open streams",
      );
      this.endAll();
    }, hubSettings.downGraceMs);
    this.downTimer.unref?.();
  }

  /** pg-listen is connected and listening again: read what was missed, then go live. */
  private restored(subscriber: Subscriber) {
    if (subscriber !== this.subscriber) {
      // one this hub gave up on, whose reconnect loop went on anyway: it has no use
      void subscriber.close().catch(() => undefined);
      return;
    }
    // the first connection's own "connected": connect() finishes the start
    if (this.held === null) return;
    void this.catchUp(this.generation);
  }

  /**
   * Reads the watched lots' events after each one's last, in id order and page by page, then
   * hands out the notifications held meanwhile. Per lot that is gap-free: what the reads did not
   * see committed after the connection was back, so it is among the held notifications.
   */
  private async catchUp(generation: number) {
    try {
      // groups still reading their start must know it before anything is read past it
      await Promise.allSettled([...this.groups.values()].map((group) => group.ready));
      let total = 0;
      for (;;) {
        if (generation !== this.generation) return;
        const watched = [...this.groups.entries()].filter(([, group]) => group.lastId !== null);
        if (watched.length === 0) break;
        const rows = await sequelize.query<LotEvent>(
          `SELECT ${LOT_EVENT_COLUMNS}
             FROM unnest(ARRAY[:lots]::bigint[], ARRAY[:since]::bigint[]) AS watched (lot, since)
             JOIN lot_events ON lot_events.lot_id = watched.lot AND lot_events.id > watched.since
            ORDER BY lot_events.id LIMIT :limit`,
          {
            replacements: {
              lots: watched.map(([lot]) => lot),
              since: watched.map(([, group]) => String(group.lastId)),
              limit: hubSettings.catchUpPageSize,
            },
            type: QueryTypes.SELECT,
            useMaster: true,
          },
        );
        if (generation !== this.generation) return;
        for (const row of rows)
          this.dispatch({ ...row, endsAt: new Date(row.endsAt).toISOString() });
        total += rows.length;
        if (rows.length < hubSettings.catchUpPageSize) break;
        if (total >= hubSettings.catchUpLimit) {
          log().error(
            { missed: total },
            "live hub: too many events missed; ending the open streams",
          );
          this.endAll();
          break;
        }
      }
    } catch (error) {
      if (generation !== this.generation) return;
      log().error({ err: error }, "live hub: catch-up failed; ending the open streams");
      this.endAll();
    }
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.dispatch(event);
    if (this.downTimer) clearTimeout(this.downTimer);
    this.downTimer = null;
    this.up = true;
    log().info({}, "live hub: LISTEN connection restored");
  }

  /** pg-listen's "error": a payload it could not parse, or it gave up reconnecting. */
  private failed(subscriber: Subscriber, error: Error) {
    if (subscriber !== this.subscriber) return;
    if (error.message.startsWith("Error parsing PostgreSQL notification payload")) {
      log().error({ err: error }, "live hub: notification payload not parsed");
      return;
    }
    // pg-listen stops for good when it cannot LISTEN again after reconnecting: start afresh
    log().error({ err: error }, "live hub: LISTEN connection failed; starting a new one");
    void this.tearDown();
    this.scheduleRetry();
  }

  /** Drops the current subscriber and ends the open streams. */
  private tearDown() {
    const subscriber = this.subscriber;
    this.subscriber = null;
    this.up = false;
    this.held = null;
    this.generation += 1;
    if (this.downTimer) clearTimeout(this.downTimer);
    this.downTimer = null;
    this.endAll();
    return subscriber?.close().catch(() => undefined);
  }

  /** A fresh connection later, backing off from retryMinMs to retryMaxMs. */
  private scheduleRetry() {
    if (this.closed || this.retryTimer) return;
    const delay = Math.min(hubSettings.retryMaxMs, hubSettings.retryMinMs * 2 ** this.failures);
    this.failures += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.start().catch(() => undefined);
    }, delay);
    this.retryTimer.unref?.();
  }

  /** Ends every open stream (each ends itself on this process by unsubscribing). */
  private endAll() {
    const subscribers = new Set<LotSubscriber>();
    for (const group of this.groups.values()) {
      for (const subscriber of group.subscribers) subscribers.add(subscriber);
    }
    this.groups.clear();
    for (const subscriber of subscribers) {
      try {
        subscriber.end();
      } catch (error) {
        log().error({ err: error }, "live listener failed");
      }
    }
  }

  async stop() {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.tearDown();
  }

  get stopped() {
    return this.closed;
  }
}

declare global {
  var __bidyardLiveHub: LiveHub | undefined;
}

/** This process's hub (kept on globalThis so dev rebuilds reuse the connection). */
export function liveHub(): LiveHub {
  if (!globalThis.__bidyardLiveHub || globalThis.__bidyardLiveHub.stopped) {
    globalThis.__bidyardLiveHub = new LiveHub(env().DATABASE_URL);
  }
  return globalThis.__bidyardLiveHub;
}

/** Closes the hub's connection (tests, shutdown). */
export async function stopLiveHub() {
  await globalThis.__bidyardLiveHub?.stop();
  globalThis.__bidyardLiveHub = undefined;
}
