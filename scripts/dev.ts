// npm run dev: the whole product on http://localhost:3000 with nothing to install or configure.
// Starts the local PostgreSQL (unless DATABASE_URL is set), migrates, seeds the demo data, starts
// the local services, then Remix's dev server and one job worker (docs/decisions/3561).
//
// Stopped (Ctrl-C, SIGTERM to npm's process, a closed terminal), it leaves nothing running
// (docs/decisions/3106): each child runs in a process group of its own, which is signalled whole
// (remix dev, the app server it restarts, esbuild) and waited for; then the local services stop,
// then the local PostgreSQL that this run started or took over.
import { execFile as execFileCb, spawn, type ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import { constants } from "node:os";
import { promisify } from "node:util";
import { ensureDatabaseUrl, stopLocalDatabase } from "../db/local";
import { startLocalServices } from "./local-services";

const execFile = promisify(execFileCb);
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
/** How long a child's group has to exit after SIGTERM before it is sent SIGKILL. */
const GRACE_MS = 5_000;

const groups = new Set<ChildProcess>();
const cleanups: Array<() => Promise<void>> = [];
let stopping: Promise<never> | null = null;
/** The step under way (the database starting, a script, the services): finished before cleanup. */
let current: Promise<unknown> = Promise.resolve();

/** True while any process of the group led by `pid` is left. */
function groupAlive(pid: number) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

/** SIGTERM to the whole group, SIGKILL after the grace period; resolves when none is left. */
async function stopGroup(pid: number, hurry: () => boolean) {
  signalGroup(pid, "SIGTERM");
  const started = Date.now();
  let killed = false;
  while (groupAlive(pid)) {
    if (!killed && (hurry() || Date.now() - started > GRACE_MS)) {
      signalGroup(pid, "SIGKILL");
      killed = true;
    }
    if (killed && Date.now() - started > GRACE_MS * 2) return; // only unreaped zombies are left
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts `command` as the leader of a new process group (its children join it). */
function startGroup(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const proc = spawn(command, args, {
    stdio: ["ignore", "inherit", "inherit"],
    env,
    detached: true,
  });
  groups.add(proc);
  return proc;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<void>((resolve, reject) => {
    const proc = startGroup(command, args, env);
    proc.on("error", reject);
    proc.on("exit", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} failed (${code})`));
    });
  });
}

/** Stops everything this run started, newest first, then exits with `code`. Idempotent. */
function shutdown(reason: string, code: number): Promise<never> {
  if (stopping) return stopping;
  let hurried = false;
  // A second Ctrl-C: stop waiting for the children to end politely.
  for (const signal of STOP_SIGNALS) process.on(signal, () => (hurried = true));
  stopping = (async () => {
    log(`\nStopping (${reason})…`);
    await Promise.all([...groups].map((proc) => stopGroup(proc.pid!, () => hurried)));
    await current.catch(() => undefined);
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    log("Stopped: nothing of npm run dev is left running.");
    process.exit(code);
  })();
  return stopping;
}

function log(line: string) {
  // After a closed terminal a write fails (EIO): the stop must go on regardless.
  try {
    console.log(line);
  } catch {
    // nothing to write to
  }
}

/**
 * The processes that launched this one up to `npm run dev` itself (tsx, the shell npm runs the
 * script with, npm). npm forwards SIGTERM only to that shell, which Debian's dash does not pass on:
 * when any of them is gone, this run has been stopped.
 */
async function launchers(): Promise<number[]> {
  const chain: number[] = [];
  let pid = process.ppid;
  const underNpm = Boolean(process.env.npm_lifecycle_event);
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    chain.push(pid);
    if (!underNpm) break;
    const { stdout } = await execFile("ps", ["-o", "ppid=,args=", "-p", String(pid)]).catch(() => ({
      stdout: "",
    }));
    const match = /^\s*(\d+)\s+(.*)$/s.exec(stdout.trim());
    if (!match || /^npm\b/.test(match[2])) break;
    pid = Number(match[1]);
  }
  return chain;
}

async function watchLaunchers() {
  const chain = await launchers();
  const timer = setInterval(() => {
    for (const pid of chain) {
      try {
        process.kill(pid, 0);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ESRCH") {
          void shutdown("npm run dev was stopped", 0);
        }
      }
    }
  }, 500);
  timer.unref();
}

async function step<T>(work: Promise<T>): Promise<T> {
  current = work;
  const result = await work;
  if (stopping) await stopping; // never resolves: the stop exits the process
  return result;
}

async function main() {
  process.stdout.on("error", () => undefined);
  process.stderr.on("error", () => undefined);
  for (const signal of STOP_SIGNALS) {
    process.once(signal, () => void shutdown(signal, 0));
  }
  await watchLaunchers();

  // The local PostgreSQL this run starts (or finds left running by an earlier one) is stopped with
  // it; a DATABASE_URL given from outside is not this run's to stop.
  if (!process.env.DATABASE_URL) cleanups.push(stopLocalDatabase);
  const databaseUrl = await step(ensureDatabaseUrl());
  const scriptEnv = { ...process.env, DATABASE_URL: databaseUrl };
  await step(run("npx", ["tsx", "db/migrate.ts", "up"], scriptEnv));
  await step(run("npx", ["tsx", "db/seed.ts"], scriptEnv));
  const services = await step(startLocalServices());
  cleanups.push(services.stop);

  // Remix's dev server rebuilds and restarts the app server it is given: ours (server/), so
  // development runs the production server's code, with its log lines made readable
  // (server/log.ts: pino-pretty under NODE_ENV=development).
  const remix = startGroup("npx", ["remix", "dev", "-c", "node server/index.ts"], {
    ...process.env,
    ...services.env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: "development",
  });
  remix.on("exit", (code, signal) => {
    void shutdown(`remix dev exited (${signal ?? code})`, code ?? 128 + constants.signals[signal!]);
  });

  // One job worker beside the web server (docs/decisions/3561), on the build remix dev writes:
  // started once the first build is there, started again after each rebuild, stopped with the
  // rest.
  startJobWorkerOnBuilds({
    ...process.env,
    ...services.env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: "development",
  });
}

const BUILD_FILE = "build/index.js";

function startJobWorkerOnBuilds(env: NodeJS.ProcessEnv) {
  const since = Date.now();
  let worker: ChildProcess | null = null;
  let built = 0;
  const restart = async () => {
    if (stopping) return;
    const previous = worker;
    worker = null;
    if (previous?.pid) {
      await stopGroup(previous.pid, () => false);
      groups.delete(previous);
    }
    if (stopping) return;
    worker = startGroup("node", ["server/jobs.ts"], env);
  };
  const look = () => {
    let mtime = 0;
    try {
      mtime = statSync(BUILD_FILE).mtimeMs;
    } catch {
      return;
    }
    if (mtime < since || mtime === built) return;
    built = mtime;
    void restart();
  };
  const timer = setInterval(look, 1_000);
  timer.unref();
  cleanups.push(async () => clearInterval(timer));
}

main().catch((error) => {
  if (stopping) return;
  console.error(error);
  void shutdown("it failed to start", 1);
});
