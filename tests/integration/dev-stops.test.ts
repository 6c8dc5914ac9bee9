// `npm run dev` stopped leaves nothing running (docs/decisions/3106): not remix dev, not the app
// server it starts, not the local issuer, mail catcher or PostgreSQL. Each case starts it as a
// terminal would (npm leading a process group of its own) in a copy of the checkout, so its
// development build and .data never touch this one, waits for it to serve, stops it, and looks for
// any process of it and any of its ports still held.
import { execFile as execFileCb, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/cluster";
import { waitFor } from "../support/wait";

const execFile = promisify(execFileCb);
const checkout = path.join(os.tmpdir(), `bidyard-dev-stops-${process.pid}`);
/** Left out of the copy: what a run writes (builds, data, results) and what is linked instead. */
const NOT_COPIED = new Set([
  ".git",
  "node_modules",
  ".data",
  "build",
  "public/build",
  ".cache",
  "test-results",
  "playwright-report",
  "blob-report",
]);

type Ps = { pid: number; ppid: number; pgid: number }[];

async function processes(): Promise<Ps> {
  const { stdout } = await execFile("ps", ["-A", "-o", "pid=,ppid=,pgid="]);
  return stdout
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .map(([pid, ppid, pgid]) => ({ pid, ppid, pgid }));
}

/** `root` and every process below it, with their process groups. */
function descendants(all: Ps, root: number) {
  const found = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const proc of all) {
      if (found.has(proc.ppid) && !found.has(proc.pid)) {
        found.add(proc.pid);
        grew = true;
      }
    }
  }
  return {
    pids: [...found],
    groups: [...new Set(all.filter((p) => found.has(p.pid)).map((p) => p.pgid))],
  };
}

function portFree(port: number) {
  return new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "127.0.0.1" }, () => server.close(() => resolve(true)));
  });
}

function waitUntil<T>(what: string, check: () => Promise<T | false>, timeout: number) {
  return waitFor(check, { what, timeout, every: 200 });
}

async function serves(url: string) {
  try {
    return (await fetch(url)).status === 200;
  } catch {
    return false;
  }
}

function signalQuietly(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

function postmasterPid(): number | null {
  const file = path.join(checkout, ".data/pg/postmaster.pid");
  return fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8").split("\n")[0]) : null;
}

beforeAll(() => {
  fs.rmSync(checkout, { recursive: true, force: true });
  fs.cpSync(process.cwd(), checkout, {
    recursive: true,
    filter: (source) => !NOT_COPIED.has(path.relative(process.cwd(), source)),
  });
  fs.chmodSync(checkout, 0o755); // as a clone is: as root, PostgreSQL's user must reach .data
  fs.symlinkSync(path.resolve("node_modules"), path.join(checkout, "node_modules"));
});

afterAll(async () => {
  // Only after a failure is anything left: stop it so the next run starts clean.
  const pid = postmasterPid();
  if (pid) await execFile("npx", ["tsx", "db/stop.ts"], { cwd: checkout }).catch(() => undefined);
  fs.rmSync(checkout, { recursive: true, force: true });
});

describe("npm run dev, stopped", () => {
  const cases = [
    { how: "SIGTERM to npm's own process", signal: "SIGTERM", toGroup: false },
    { how: "Ctrl-C (SIGINT to the terminal's foreground group)", signal: "SIGINT", toGroup: true },
    { how: "a closed terminal (SIGHUP to the group)", signal: "SIGHUP", toGroup: true },
  ] as const;

  it.each(cases)(
    "by $how leaves nothing running and its ports free",
    async ({ signal, toGroup }) => {
      const ports = {
        PORT: await freePort(),
        LOCAL_PG_PORT: await freePort(),
        LOCAL_OIDC_PORT: await freePort(),
        MAIL_CATCHER_PORT: await freePort(),
      };
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const name of ["DATABASE_URL", "NODE_ENV", "SMTP_URL", "OIDC_ISSUER", "METRICS_PORT"]) {
        delete env[name];
      }
      Object.assign(env, Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, `${v}`])));

      let output = "";
      const npm: ChildProcess = spawn("npm", ["run", "dev"], {
        cwd: checkout,
        env,
        detached: true, // its own group, as a terminal's foreground job
        stdio: ["ignore", "pipe", "pipe"],
      });
      npm.stdout!.on("data", (chunk: Buffer) => (output += chunk));
      npm.stderr!.on("data", (chunk: Buffer) => (output += chunk));
      const npmExited = new Promise((resolve) => npm.once("exit", resolve));

      try {
        await waitUntil(
          "npm run dev serving",
          async () => npm.exitCode === null && (await serves(`http://localhost:${ports.PORT}/`)),
          240_000, // a first start: initdb, migrations, demo data, a development build
        );
      } catch (error) {
        process.kill(-npm.pid!, "SIGKILL");
        throw new Error(`${(error as Error).message}\n${output}`);
      }

      const running = descendants(await processes(), npm.pid!);
      const postgres = postmasterPid();
      expect(postgres, "the local PostgreSQL's pid").toBeTruthy();

      process.kill(toGroup ? -npm.pid! : npm.pid!, signal);

      const stopped = Date.now();
      const left = await waitUntil(
        "every process of npm run dev gone",
        async () => {
          const now = await processes();
          const alive = now.filter(
            (p) =>
              running.pids.includes(p.pid) || running.groups.includes(p.pgid) || p.pid === postgres,
          );
          return alive.length === 0 ? alive : false;
        },
        30_000,
      ).catch((error: Error) => error);
      if (left instanceof Error) {
        // the failure is reported below; what was left is killed so that the next case starts clean
        for (const group of running.groups) signalQuietly(-group, "SIGKILL");
        for (const pid of running.pids) signalQuietly(pid, "SIGKILL");
      }
      expect(left, output).toEqual([]);
      await npmExited;
      console.log(`${signal}: everything gone ${Date.now() - stopped} ms after the signal`);

      for (const [name, port] of Object.entries(ports)) {
        expect(await portFree(port), `${name} ${port} still held`).toBe(true);
      }
      expect(output).toContain("Stopped: nothing of npm run dev is left running.");
    },
    300_000,
  );
});
