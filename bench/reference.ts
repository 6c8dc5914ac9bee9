// The bench's reference app (bench/reference, docs/decisions/2902): a minimal Remix 2 app built
// from the same installed packages, served on its own port against the bench's database, so each
// page of BidYard is measured beside the framework's own cost of the same page in the same run.
import { spawn } from "node:child_process";
import path from "node:path";
import type { AppProcess } from "../tests/support/app-process";

const DIR = "bench/reference";

/** `remix build` of the reference app (about two seconds). */
export function buildReference() {
  return new Promise<void>((resolve, reject) => {
    // from its own folder: given as a project folder from outside, the compiler cannot find the
    // entry of a CSS import
    const build = spawn(path.resolve("node_modules/.bin/remix"), ["build"], {
      cwd: DIR,
      stdio: "ignore",
      env: { ...process.env, NODE_ENV: "production" },
    });
    build.on("error", reject);
    build.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error("remix build of the reference app failed")),
    );
  });
}

/** The reference's server, with the heap cap `npm start` gives BidYard's. */
export function startReference(
  env: { DATABASE_URL: string; SESSION_SECRET: string; REFERENCE_CLEARS_ABORT_TIMER?: string },
  port: number,
  /** more Node flags (the profiler's, say) */
  nodeArgs: string[] = [],
): AppProcess {
  let output = "";
  const proc = spawn("node", ["--max-old-space-size=192", ...nodeArgs, `${DIR}/server.mjs`], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      ...env,
      PORT: String(port),
    } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  proc.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  return {
    url: `http://localhost:${port}`,
    proc,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once("exit", () => resolve());
        proc.kill("SIGTERM");
      }),
  };
}
