import { createHash } from "node:crypto";
import type pg from "pg";
import type { Sequelize } from "sequelize";
import { env } from "~/platform/env.server";
import { choosePoolPerRequest } from "./replica.server";
import { connectSequelize } from "./sequelize.server";

/**
 * A pool on `url`; with `replicaUrl` (this machine's region has a replica) a second one on the
 * replica, read only by requests that opt in (docs/decisions/3701).
 */
export function createSequelize(
  url: string,
  poolMax = env().DATABASE_POOL_MAX,
  replicaUrl: string | null = null,
) {
  const sequelize = connectSequelize(url, poolMax, replicaUrl);
  if (replicaUrl) choosePoolPerRequest(sequelize);
  return sequelize;
}

declare global {
  var __bidyardSequelize: Sequelize | undefined;
}

// One pool per process; it connects on first query. Kept on globalThis so dev rebuilds reuse it.
export const sequelize: Sequelize = (globalThis.__bidyardSequelize ??= createSequelize(
  env().DATABASE_URL,
  env().DATABASE_POOL_MAX,
  env().replicaUrl,
));

/** True when the database answers a trivial query within `timeoutMs`. */
export async function databaseIsUp(timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = sql("select 1").then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type PooledClient = pg.Client;
type ConnectionManager = {
  getConnection(options: { type: string; useMaster?: boolean }): Promise<PooledClient>;
  releaseConnection(connection: PooledClient): void;
};

/**
 * One statement through a connection of the app's own pool, without Sequelize's query machinery
 * (query building, result mapping, hooks): for the few reads every page makes, where that
 * machinery cost more than the query (docs/decisions/2903). Values are bound ($1, $2, …); rows
 * come back as pg reads them on Sequelize's connections (the same types `sequelize.query` gives).
 * Errors are pg's own, which isDatabaseOutage knows. A statement that writes passes `primary`.
 */
export async function sql<T>(
  text: string,
  values: unknown[] = [],
  options: { prepared?: boolean; primary?: boolean } = {},
): Promise<T[]> {
  const manager = sequelize.connectionManager as unknown as ConnectionManager;
  // a request reading the replica reads it here too, unless the statement asks for the primary
  const connection = await manager.getConnection({
    type: "SELECT",
    useMaster: options.primary === true,
  });
  try {
    // A prepared statement is parsed once per connection and its plan can be kept, so the
    // planner (a good share of a short query's cost on a table with many indexes) runs less.
    // Only for statements whose result columns are fixed (no `*`): a migration that changes
    // them would fail a kept plan.
    const query = options.prepared ? { name: statementName(text), text, values } : { text, values };
    return (await connection.query<T & pg.QueryResultRow>(query)).rows;
  } finally {
    manager.releaseConnection(connection);
  }
}

const statementNames = new Map<string, string>();
function statementName(text: string) {
  let name = statementNames.get(text);
  if (!name) {
    name = `by_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
    if (statementNames.size >= 1000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/**
 * How far the primary's log holds what has committed: what a reader of a replica waits for after a
 * write. A commit returns once its log is flushed (synchronous_commit on, PostgreSQL's default),
 * and a replica is sent only flushed log, so the flush position is the one to wait for; the
 * insert position runs ahead of it by records not yet flushed, which reach a replica only with
 * the next commit or the log writer's turn (up to 200 ms). With synchronous_commit off a commit
 * may return before its flush: then the insert position, which is never behind it.
 */
export async function primaryWalPosition(): Promise<string> {
  const [row] = await sql<{ position: string }>(
    `SELECT (CASE WHEN current_setting('synchronous_commit') = 'off'
                  THEN pg_current_wal_insert_lsn() ELSE pg_current_wal_flush_lsn() END)::text
              AS position`,
    [],
    { primary: true },
  );
  return row.position;
}
