import pg from "pg";
import { Sequelize } from "sequelize";

/**
 * A Sequelize for one database URL, with the app's connection settings. Reads no other setting:
 * the release command (`npm run db:migrate -- up`) connects through it with only DATABASE_URL set
 * (docs/decisions/3104-the-image-built-and-checked-in-ci.md).
 *
 * With `replicaUrl`, Sequelize keeps a second pool on the replica (its `replication` option);
 * which pool a query takes is chosen per request (app/models/replica.server.ts,
 * docs/decisions/3701): the primary unless the request opted into replica reads.
 */
export function connectSequelize(url: string, poolMax: number, replicaUrl?: string | null) {
  const dialectOptions = { connectionTimeoutMillis: 3_000, statement_timeout: 15_000 };
  return new Sequelize(url, {
    dialect: "postgres",
    dialectModule: pg,
    logging: false,
    // With a replica the machine is far from the primary, where a new connection costs several
    // round trips (TCP, start-up, password exchange, session settings): three are kept open, so a
    // live stream's lease and first read go at once, beside a lease given back, without one
    // (docs/decisions/3701).
    pool: { max: poolMax, min: replicaUrl ? 3 : 0, idle: 10_000, acquire: 10_000, evict: 5_000 },
    dialectOptions,
    define: { underscored: true, timestamps: true },
    ...(replicaUrl
      ? {
          replication: {
            write: connectionOf(url, dialectOptions),
            read: [connectionOf(replicaUrl, dialectOptions)],
          },
        }
      : {}),
  });
}

/**
 * A database URL as Sequelize's replication settings name its parts; its `options` parameter
 * (server settings, `-c name=value`) is passed on.
 */
function connectionOf(url: string, dialectOptions: object) {
  const parsed = new URL(url);
  const options = parsed.searchParams.get("options");
  return {
    dialectOptions: options ? { ...dialectOptions, options } : dialectOptions,
    host: parsed.hostname,
    port: parsed.port || "5432",
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.slice(1)),
  };
}
