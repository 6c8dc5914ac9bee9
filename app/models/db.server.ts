import pg from "pg";
import { Sequelize } from "sequelize";
import { env } from "~/platform/env.server";

export function createSequelize(url: string, poolMax = env().DATABASE_POOL_MAX) {
  return new Sequelize(url, {
    dialect: "postgres",
    dialectModule: pg,
    logging: false,
    pool: { max: poolMax, min: 0, idle: 10_000, acquire: 10_000, evict: 5_000 },
    dialectOptions: { connectionTimeoutMillis: 3_000, statement_timeout: 15_000 },
    define: { underscored: true, timestamps: true },
  });
}

declare global {
  var __bidyardSequelize: Sequelize | undefined;
}

// One pool per process; it connects on first query. Kept on globalThis so dev rebuilds reuse it.
export const sequelize: Sequelize = (globalThis.__bidyardSequelize ??= createSequelize(
  env().DATABASE_URL,
));

/** True when the database answers a trivial query within `timeoutMs`. */
export async function databaseIsUp(timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = sequelize
    .query("select 1")
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
