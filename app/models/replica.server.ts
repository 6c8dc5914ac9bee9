// Reads from a streaming replica near the machine, for the requests that opt in
// (docs/decisions/3701). Which pool a query takes is decided per request, never globally:
// Sequelize's `replication` sends every SELECT-typed query to the read pool, and some writes are
// sent typed as SELECT (a function call, `INSERT … RETURNING`). So the default is the primary, and
// only a request run in `readingReplica` reads the replica, and even then a transaction, a query
// that asks for the primary (`useMaster`) and anything run in `onPrimary` use the primary.
//
// One watcher per process asks the replica how far it has replayed the primary's log and how far
// behind it is: a read that must see the reader's own last write waits for it here, and a replica
// that is down or lagging is not read at all.
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import type { Sequelize } from "sequelize";
import { parseWalPosition } from "~/utils/wal-position";

/** What one request reads from, and whether the replica failed it (the edge then replays it). */
export type ReadScope = { reads: "replica" | "primary"; request: { replicaFailed: boolean } };

declare global {
  var __bidyardReadScope: AsyncLocalStorage<ReadScope> | undefined;
  var __bidyardReplicaWatch: ReplicaWatch | undefined;
}

// Kept on globalThis, like the pool, so a development rebuild keeps the one the pool's hook reads.
const scope = (globalThis.__bidyardReadScope ??= new AsyncLocalStorage<ReadScope>());

/** Runs `work` reading the replica (outside transactions); `request` learns if the replica failed. */
export function readingReplica<T>(work: () => T, request = { replicaFailed: false }): T {
  return scope.run({ reads: "replica", request }, work);
}

/** Runs `work` on the primary, whatever the request around it reads. */
export function onPrimary<T>(work: () => T): T {
  const outer = scope.getStore();
  if (!outer || outer.reads === "primary") return work();
  return scope.run({ reads: "primary", request: outer.request }, work);
}

/** True while the current request reads the replica. */
function readsReplica() {
  return scope.getStore()?.reads === "replica";
}

/**
 * Notes that the replica could not answer this request (down, or it refused a write): the edge
 * answers it with a replay to the primary region instead. False outside a replica-reading request.
 */
export function noteReplicaFailed() {
  const store = scope.getStore();
  if (!store || store.reads !== "replica") return false;
  store.request.replicaFailed = true;
  return true;
}

/**
 * Chooses the pool for each connection Sequelize takes: the primary for a transaction (its
 * connection is taken with its id) or a query that asks for it, the replica only inside
 * `readingReplica`. Installed on a Sequelize built with a replica (connectSequelize).
 */
export function choosePoolPerRequest(sequelize: Sequelize) {
  sequelize.addHook("beforePoolAcquire", (options) => {
    const taking = options as { uuid?: unknown; useMaster?: boolean; type?: string };
    taking.useMaster = taking.uuid !== undefined || taking.useMaster === true || !readsReplica();
  });
}

export type ReplicaState = {
  /** "ok": read it; "lagging": behind by more than the bound (or not streaming); "down". */
  status: "ok" | "lagging" | "down";
  /** How far behind the primary it is, in ms (null while down or not streaming). */
  lagMs: number | null;
  /** The log position it has replayed, as PostgreSQL writes it. */
  replayed: string | null;
  /** When it was last asked (ms since the epoch; 0 before the first answer). */
  checkedAt: number;
};

const STATE_SQL = `SELECT pg_last_wal_replay_lsn()::text AS replayed,
  CASE WHEN NOT pg_is_in_recovery() THEN 0
       WHEN pg_last_wal_receive_lsn() IS NULL THEN NULL
       WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
       ELSE greatest(0, extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000)
  END::float8 AS lag_ms`;

/** The replica's watcher: one query at a time, every second, every few ms while someone waits. */
export class ReplicaWatch {
  state: ReplicaState = { status: "down", lagMs: null, replayed: null, checkedAt: 0 };
  private replayedAt: bigint | null = null;
  private client: pg.Client | null = null;
  private asking: Promise<void> | null = null;
  private waiters = new Set<{ position: bigint; done: (reached: boolean) => void }>();
  private timer: NodeJS.Timeout | null = null;
  private fastTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly settings: { maxLagMs: number; everyMs?: number; fastMs?: number },
  ) {}

  start() {
    if (this.timer) return;
    this.timer = setInterval(() => void this.ask(), this.settings.everyMs ?? 1_000);
    this.timer.unref();
    void this.ask();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const waiter of this.waiters) waiter.done(false);
    this.waiters.clear();
    void this.client?.end().catch(() => undefined);
    this.client = null;
  }

  /** True when the replica may be read: up, streaming, and not behind by more than the bound. */
  usable() {
    const staleAfter = 3 * (this.settings.everyMs ?? 1_000);
    return this.state.status === "ok" && Date.now() - this.state.checkedAt < staleAfter;
  }

  /**
   * Resolves true once the replica has replayed `position` (at once if it has), false if it has
   * not within `withinMs` or cannot be asked.
   */
  reached(position: bigint, withinMs: number): Promise<boolean> {
    if (this.replayedAt !== null && this.replayedAt >= position) return Promise.resolve(true);
    if (withinMs <= 0 || this.state.status === "down") return Promise.resolve(false);
    // a replica already further behind than the wait would only make the read wait for nothing
    if (this.state.lagMs !== null && this.state.lagMs > withinMs) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter = {
        position,
        done: (reached: boolean) => {
          clearTimeout(timeout);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timeout = setTimeout(() => waiter.done(false), withinMs);
      this.waiters.add(waiter);
      this.askSoon();
    });
  }

  /** While someone waits, ask again every few ms (one query at a time for all of them). */
  private askSoon() {
    if (this.fastTimer || this.waiters.size === 0) return;
    this.fastTimer = setTimeout(() => {
      this.fastTimer = null;
      void this.ask().then(() => this.askSoon());
    }, this.settings.fastMs ?? 10);
  }

  /** Asks the replica where it stands (joins the question already on its way). */
  ask(): Promise<void> {
    this.asking ??= this.askOnce().finally(() => {
      this.asking = null;
    });
    return this.asking;
  }

  private async askOnce() {
    try {
      if (!this.client) {
        const client = new pg.Client({
          connectionString: this.url,
          connectionTimeoutMillis: 2_000,
          statement_timeout: 2_000,
          application_name: "bidyard-replica-watch",
        });
        client.on("error", () => undefined);
        await client.connect();
        this.client = client;
      }
      const {
        rows: [row],
      } = await this.client.query<{ replayed: string | null; lag_ms: number | null }>(STATE_SQL);
      const lagMs = row.lag_ms === null ? null : Math.round(row.lag_ms);
      this.replayedAt = parseWalPosition(row.replayed);
      this.state = {
        status: lagMs !== null && lagMs <= this.settings.maxLagMs ? "ok" : "lagging",
        lagMs,
        replayed: row.replayed,
        checkedAt: Date.now(),
      };
    } catch {
      void this.client?.end().catch(() => undefined);
      this.client = null;
      this.replayedAt = null;
      this.state = { status: "down", lagMs: null, replayed: null, checkedAt: Date.now() };
    }
    for (const waiter of this.waiters) {
      if (this.replayedAt !== null && this.replayedAt >= waiter.position) waiter.done(true);
      else if (this.state.status === "down") waiter.done(false);
    }
  }
}

/** This process's watcher of the replica at `url` (started on first use). */
export function replicaWatch(url: string, maxLagMs: number): ReplicaWatch {
  const watch = (globalThis.__bidyardReplicaWatch ??= new ReplicaWatch(url, { maxLagMs }));
  watch.start();
  return watch;
}
