// One LISTEN connection per server process, fanning lot events out to this process's open streams
// (docs/decisions/1801-live-updates-by-server-sent-events.md). pg-listen reconnects after a lost
// connection; notifications sent while it was away are read back from lot_events, so a stream
// that stayed open through a database restart misses nothing either.
import createSubscriber, { type Subscriber } from "pg-listen";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { env } from "~/platform/env.server";

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

export type LotListener = (event: LotEvent) => void;

type Group = { listeners: Set<LotListener>; lastId: bigint };

/** The columns of lot_events in the LotEvent shape (for replays and catch-up). */
export const LOT_EVENT_COLUMNS = `id::text AS id, lot_id::text AS lot, current_bid::text AS price,
  bid_count AS count, ends_at AS "endsAt", status, high_bidder_id AS leader,
  previous_bidder_id AS previous`;

const CATCH_UP_LIMIT = 10_000;

export class LiveHub {
  private readonly groups = new Map<string, Group>();
  private subscriber: Subscriber | null = null;
  private starting: Promise<void> | null = null;
  /** The newest event id this process has seen: where a new lot's group starts. */
  private highWater = 0n;
  private closed = false;
  /** True while the LISTEN connection is up. */
  connected = false;

  constructor(private readonly databaseUrl: string) {}

  /** Connects once (later calls share the attempt); rejects if the database cannot be reached. */
  start(): Promise<void> {
    if (this.connected) return Promise.resolve();
    this.starting ??= this.connect().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async connect() {
    if (this.subscriber) return;
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
    subscriber.notifications.on(LOT_EVENTS_CHANNEL, (event: LotEvent) => this.dispatch(event));
    subscriber.events.on("error", (error) => {
      this.connected = false;
      console.error("live hub:", error.message);
    });
    subscriber.events.on("reconnect", () => {
      this.connected = false;
    });
    subscriber.events.on("connected", () => {
      if (this.connected || this.subscriber !== subscriber) return;
      this.connected = true;
      void this.catchUp().catch((error) => console.error("live hub catch-up:", error));
    });
    try {
      await subscriber.connect();
      await subscriber.listenTo(LOT_EVENTS_CHANNEL);
    } catch (error) {
      await subscriber.close().catch(() => undefined);
      throw error;
    }
    const [row] = await sequelize.query<{ id: string }>(
      "SELECT coalesce(max(id), 0)::text AS id FROM lot_events",
      { type: QueryTypes.SELECT },
    );
    if (BigInt(row.id) > this.highWater) this.highWater = BigInt(row.id);
    this.subscriber = subscriber;
    this.connected = true;
  }

  /** Listens to these lots; returns the function that stops listening. */
  subscribe(lots: string[], listener: LotListener): () => void {
    for (const lot of lots) {
      let group = this.groups.get(lot);
      if (!group) {
        group = { listeners: new Set(), lastId: this.highWater };
        this.groups.set(lot, group);
      }
      group.listeners.add(listener);
    }
    return () => {
      for (const lot of lots) {
        const group = this.groups.get(lot);
        if (!group) continue;
        group.listeners.delete(listener);
        if (group.listeners.size === 0) this.groups.delete(lot);
      }
    };
  }

  /** Open subscriptions (one per stream and lot), for the benchmark and tests. */
  get listenerCount() {
    let count = 0;
    for (const group of this.groups.values()) count += group.listeners.size;
    return count;
  }

  /**
   * Hands an event to its lot's listeners. Events of one lot arrive in id order (the lot's row
   * lock orders them); one seen already (a notification and the catch-up both) is skipped.
   */
  dispatch(event: LotEvent) {
    const id = BigInt(event.id);
    if (id > this.highWater) this.highWater = id;
    const group = this.groups.get(event.lot);
    if (!group || id <= group.lastId) return;
    group.lastId = id;
    for (const listener of group.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error("live listener:", error);
      }
    }
  }

  /** After a reconnect: what the watched lots changed while the connection was down. */
  private async catchUp() {
    if (this.groups.size === 0) return;
    let since = this.highWater;
    for (const group of this.groups.values()) if (group.lastId < since) since = group.lastId;
    const events = await sequelize.query<LotEvent>(
      `SELECT ${LOT_EVENT_COLUMNS} FROM lot_events
        WHERE id > :since AND lot_id = ANY(ARRAY[:lots]::bigint[]) ORDER BY lot_events.id LIMIT :limit`,
      {
        replacements: {
          since: String(since),
          lots: [...this.groups.keys()],
          limit: CATCH_UP_LIMIT,
        },
        type: QueryTypes.SELECT,
      },
    );
    for (const event of events) {
      this.dispatch({ ...event, endsAt: new Date(event.endsAt).toISOString() });
    }
  }

  async stop() {
    this.closed = true;
    const subscriber = this.subscriber;
    this.subscriber = null;
    this.connected = false;
    this.groups.clear();
    await subscriber?.close().catch(() => undefined);
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
