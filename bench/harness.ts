// What keeps a bench run honest when something goes wrong (docs/decisions/2901): every row is kept
// as it is measured, every process the run starts is registered, and however the run ends (done,
// a thrown error, an error event nobody listened for, Ctrl-C) the rows measured so far are written
// and every registered process is stopped before the bench exits.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { processTree } from "../tests/support/process-memory";

export type Row = { scenario: string; figure: string; target: string; met: boolean | null };

type Stop = { label: string; stop: () => Promise<unknown>; lastResort?: () => void };

export type BenchOptions = {
  /** the results' file name without extension: DATE, or DATE-NAME with BENCH_NAME */
  name: string;
  /** where the results go (BENCH_RESULTS_DIR, else bench/results) */
  dir: string;
  /** the lines above the table (machine, sizes), asked for when the file is written */
  preamble: () => string[];
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * A throwaway PostgreSQL cluster with one migrated database seeded for a targeted run
 * (bench/profile.ts, bench/ab-builds.ts): the demo lots, `lots` more at scale and `listings`
 * community listings, then VACUUM ANALYZE. DATABASE_URL is set to it for this process.
 */
export async function seededCluster(name: string, sizes: { lots: number; listings?: number }) {
  const { startThrowawayCluster } = await import("../tests/support/cluster");
  const { createDatabase, migrateDatabase } = await import("../tests/support/databases");
  const cluster = await startThrowawayCluster(name);
  try {
    const database = `bidyard_${name.replace(/[^a-z0-9]+/gi, "_")}`;
    await createDatabase(cluster.urlFor("postgres"), database);
    const databaseUrl = cluster.urlFor(database);
    process.env.DATABASE_URL = databaseUrl;
    await migrateDatabase(databaseUrl);
    const { seedDemoLots, seedScaleLots } = await import("../db/seeds/lots");
    const { seedBulkListings } = await import("../db/seeds/listings");
    const { sequelize } = await import("../app/models/db.server");
    await seedDemoLots();
    await seedScaleLots(sizes.lots);
    if (sizes.listings) await seedBulkListings(sizes.listings);
    await sequelize.query("VACUUM ANALYZE");
    await sequelize.close();
    return { cluster, databaseUrl };
  } catch (error) {
    await cluster.remove();
    throw error;
  }
}

/** The PostgreSQL server of a data directory (the first line of its postmaster.pid), or null. */
export function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

export class Bench {
  readonly rows: Row[] = [];
  /** sections printed after the rows (the ablation table, docs/decisions/3401) */
  readonly sections: Array<{ title: string; text: string }> = [];
  /** every process the run started (label and pid), as written in the results */
  readonly processes: Array<{ label: string; pid: number }> = [];
  private readonly stops: Stop[] = [];
  private written = false;
  /** set once stopAll has run: pids listed afterwards may belong to someone else by now */
  private stopped = false;
  private readonly started = Date.now();

  constructor(private readonly options: BenchOptions) {}

  log(line: string) {
    console.log(`[bench] ${line}`);
  }

  section(title: string, text: string) {
    this.sections.push({ title, text });
    this.log(`${title}\n${text}`);
  }

  row(scenario: string, figure: string, target: string, met: boolean | null) {
    this.rows.push({ scenario, figure, target, met });
    this.log(
      `${scenario}: ${figure} (target ${target}${met === null ? "" : met ? ": met" : ": MISSED"})`,
    );
  }

  /**
   * Something to stop when the run ends, newest first. `lastResort` runs synchronously if the
   * process exits before `stop` could (a signal, an error in an event handler).
   */
  onStop(label: string, stop: () => Promise<unknown>, lastResort?: () => void) {
    const entry = { label, stop, lastResort };
    this.stops.unshift(entry);
    return async () => {
      const at = this.stops.indexOf(entry);
      if (at >= 0) this.stops.splice(at, 1);
      await stop();
    };
  }

  /** A process the run started: listed in the results and killed at the end if still there. */
  process(label: string, pid: number | undefined) {
    if (pid) this.processes.push({ label, pid });
  }

  /** A throwaway cluster: its server's pid is recorded, and stopped hard as a last resort. */
  cluster(label: string, cluster: { dataDir: string; remove: () => Promise<void> }) {
    const pid = postmasterPid(cluster.dataDir);
    if (pid) this.process(`${label} (PostgreSQL)`, pid);
    return this.onStop(label, cluster.remove, () => {
      const running = postmasterPid(cluster.dataDir) ?? pid;
      // SIGQUIT is PostgreSQL's immediate shutdown: the server takes its backends with it
      if (running && alive(running)) process.kill(running, "SIGQUIT");
      rmSync(cluster.dataDir, { recursive: true, force: true });
    });
  }

  async stopAll() {
    for (const { label, stop } of this.stops.splice(0)) {
      await Promise.race([
        stop().catch((error) => this.log(`stopping ${label}: ${(error as Error).message}`)),
        new Promise((resolve) => setTimeout(resolve, 20_000).unref()),
      ]);
    }
    // anything still there (a child of a child, a stop that timed out) goes now
    for (const { pid } of this.processes) {
      for (const member of processTree(pid).reverse()) {
        if (alive(member)) process.kill(member, "SIGKILL");
      }
    }
    this.stopped = true;
  }

  /** Synchronous: for process 'exit', where nothing asynchronous runs any more. */
  lastResort() {
    if (this.stopped) return;
    for (const { lastResort } of this.stops.splice(0)) {
      try {
        lastResort?.();
      } catch {
        // best effort
      }
    }
    for (const { pid } of this.processes) {
      for (const member of processTree(pid).reverse()) {
        try {
          if (alive(member)) process.kill(member, "SIGKILL");
        } catch {
          // gone, or not ours
        }
      }
    }
  }

  /** Writes DATE(.json|.md); a run that stopped early says why, with every row measured before. */
  write(stoppedBy: string | null) {
    this.written = true;
    const seconds = Math.round((Date.now() - this.started) / 1000);
    const { name, dir } = this.options;
    const preamble = this.options.preamble();
    const markdown = [
      `# BidYard benchmark, ${name}`,
      "",
      ...preamble,
      `The whole run took ${seconds} s.`,
      ...(stoppedBy
        ? ["", `**The run stopped early: ${stoppedBy}.** The rows below were measured before it.`]
        : []),
      "",
      "| scenario | figure | target | met |",
      "|---|---|---|---|",
      ...this.rows.map(
        (r) =>
          `| ${r.scenario} | ${r.figure} | ${r.target} | ${r.met === null ? "–" : r.met ? "yes" : "**no**"} |`,
      ),
      "",
      ...this.sections.flatMap((s) => [`## ${s.title}`, "", s.text, ""]),
    ].join("\n");
    mkdirSync(dir, { recursive: true });
    const json = path.join(dir, `${name}.json`);
    writeFileSync(
      json,
      JSON.stringify(
        {
          name,
          complete: stoppedBy === null,
          stoppedBy,
          seconds,
          preamble,
          rows: this.rows,
          sections: this.sections,
          processes: this.processes,
        },
        null,
        2,
      ),
    );
    writeFileSync(path.join(dir, `${name}.md`), markdown);
    console.log(`\n${markdown}`);
    console.log(`written: ${json} and ${path.join(dir, `${name}.md`)}`);
  }

  get hasWritten() {
    return this.written;
  }
}

/**
 * Runs `main` so that however it ends, the rows are written and the processes stopped. Exit
 * code: 0 when done (1 with BENCH_STRICT=1 and a missed target), 1 when stopped early.
 */
export function runBench(options: BenchOptions, main: (bench: Bench) => Promise<void>) {
  const bench = new Bench(options);
  let ending: Promise<never> | null = null;
  const end = (stoppedBy: string | null, code: number) =>
    (ending ??= (async () => {
      try {
        bench.write(stoppedBy);
      } catch (error) {
        console.error("writing the results failed:", error);
      }
      await bench.stopAll();
      process.exit(code);
    })());
  const fail = (what: string) => (error: unknown) => {
    console.error(error);
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    bench.row("the run", `stopped by ${what}: ${message}`, "runs to the end", false);
    return end(`${what}: ${message}`, 1);
  };
  process.on("uncaughtException", fail("an uncaught error"));
  process.on("unhandledRejection", fail("an unhandled rejection"));
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => fail(signal)(new Error(`the bench received ${signal}`)));
  }
  process.on("exit", () => bench.lastResort());
  main(bench).then(() => {
    const missed = bench.rows.some((r) => r.met === false);
    return end(null, process.env.BENCH_STRICT === "1" && missed ? 1 : 0);
  }, fail("an error"));
  return bench;
}

/** The results' folder and file name for this run (BENCH_RESULTS_DIR, BENCH_NAME). */
export function resultsTarget() {
  const date = new Date().toISOString().slice(0, 10);
  const name = process.env.BENCH_NAME ? `${date}-${process.env.BENCH_NAME}` : date;
  return { name, dir: process.env.BENCH_RESULTS_DIR ?? "bench/results" };
}

/** The Chromium the browser rows use, or null when there is none at the path. */
export function chromiumPath() {
  const at = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  return { at, found: existsSync(at) };
}
