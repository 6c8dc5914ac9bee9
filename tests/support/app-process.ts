// Starts the built app the way the image does (`npm start`) and waits for it to answer.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { waitFor } from "./wait";

// `npm test` builds once up front and says so; otherwise build here, since a build left by
// `npm run dev` is a development build that must not be served as production.
export async function ensureBuilt() {
  const built = existsSync("build/index.js") && existsSync("build/server/index.js");
  if (process.env.BIDYARD_FRESH_BUILD === "1" && built) return;
  await new Promise<void>((resolve, reject) => {
    // the app and the server (package.json's build: remix build, then server/ bundled)
    const build = spawn("npm", ["run", "build"], {
      stdio: "ignore",
      env: { ...process.env, NODE_ENV: "production" },
    });
    build.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error("npm run build failed")),
    );
  });
}

export type AppProcess = {
  url: string;
  proc: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
};

/**
 * The arguments `npm start` gives node (heap cap and all), so tests run the server as shipped;
 * `buildDir` serves another copy of `build/` (bench/ab-builds.ts) with the same flags.
 */
function startArguments(buildDir = "build"): string[] {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } };
  const [command, ...args] = pkg.scripts.start.split(/\s+/);
  if (command !== "node") throw new Error(`npm start must run node, not ${command}`);
  return args.map((arg) =>
    arg.startsWith("build/") ? `${buildDir}/${arg.slice("build/".length)}` : arg,
  );
}

/**
 * `nodeArgs` go before the server's own (the benchmark's `--cpu-prof`). With `buildDir`, the
 * server and the Remix build it loads (REMIX_BUILD) are that copy's.
 */
export function startApp(
  env: Record<string, string>,
  port: number,
  nodeArgs: string[] = [],
  buildDir?: string,
): AppProcess {
  let output = "";
  const childEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...(buildDir ? { REMIX_BUILD: `${buildDir}/index.js` } : {}),
    ...env,
    PORT: String(port),
  };
  const proc: ChildProcess = spawn("node", [...nodeArgs, ...startArguments(buildDir)], {
    env: childEnv as unknown as NodeJS.ProcessEnv,
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

/** Polls `url` until it answers 200; returns the milliseconds it took. */
export async function waitFor200(url: string, app: AppProcess, timeoutMs = 20_000, pollMs = 50) {
  const started = Date.now();
  await waitFor(
    async () => {
      if (app.proc.exitCode !== null) throw new Error(`app exited early:\n${app.output()}`);
      // (not listening yet: no answer)
      return (await fetch(url).catch(() => null))?.status === 200;
    },
    { what: `a 200 from ${url}`, timeout: timeoutMs, every: pollMs, detail: app.output },
  );
  return Date.now() - started;
}
