// The bench survives (docs/decisions/2901): without Chromium its browser rows say so and the run
// goes on; when a part fails, or the bench is told to stop, the rows measured so far are written
// and every process it started (its PostgreSQL, the app servers, the reference app, the bare HTTP
// server) is gone afterwards. Each case runs the real `bench/run.ts` on a small database.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { waitFor } from "../support/wait";

const resultsDir = mkdtempSync(path.join(os.tmpdir(), "bidyard-bench-test-"));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

type Results = {
  complete: boolean;
  stoppedBy: string | null;
  rows: Array<{ scenario: string; figure: string; met: boolean | null }>;
  processes: Array<{ label: string; pid: number }>;
};

function benchRun(name: string, env: Record<string, string>, stopWhen?: RegExp) {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    BENCH_LOTS: "2000",
    BENCH_LISTINGS: "300",
    BENCH_SECONDS: "1",
    BENCH_RESULTS_DIR: resultsDir,
    BENCH_NAME: name,
    ...env,
  };
  for (const key of Object.keys(childEnv)) {
    if (key.startsWith("VITEST") || key === "DATABASE_URL" || key === "NODE_ENV")
      delete childEnv[key];
  }
  // node itself (no npx or tsx launcher between), in its own process group: a signal reaches the
  // bench alone, and whatever is left of it afterwards is found by the group
  const child = spawn(process.execPath, ["--import", "tsx", "bench/run.ts"], {
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  let signalled = false;
  const read = (chunk: Buffer) => {
    output += chunk;
    if (stopWhen && !signalled && stopWhen.test(output)) {
      signalled = true;
      // the bench alone: stopping the rest is its own job
      process.kill(child.pid!, "SIGINT");
    }
  };
  child.stdout!.on("data", read);
  child.stderr!.on("data", read);
  return new Promise<{ code: number | null; output: string; results: Results; group: number }>(
    (resolve) =>
      child.on("exit", (code) => {
        // DATE-name.json
        const file = readdirSync(resultsDir).find((f) => f.endsWith(`-${name}.json`));
        const results = (
          file ? JSON.parse(readFileSync(path.join(resultsDir, file), "utf8")) : null
        ) as Results;
        resolve({ code, output, results, group: child.pid! });
      }),
  );
}

/** Running (not a zombie waiting for its parent to read its exit). */
const running = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1][0] !== "Z";
  } catch {
    return false;
  }
};

/** Processes still running from the bench: its process group, or a server on its data folders. */
async function leftovers(group: number) {
  // a process being stopped may need a moment to be reaped: look until none is left (5 s at most)
  const find = () =>
    readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
          const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
          return (
            stat[0] !== "Z" &&
            (Number(stat[2]) === group || command.includes(`bidyard-bench-${group}`))
          );
        } catch {
          return false;
        }
      });
  const gone = { what: "the bench's processes gone", timeout: 5_000, every: 250 };
  // what is still there after that is the answer (the test names it)
  return waitFor(() => find().length === 0, gone).then(
    (): string[] => [],
    () => find(),
  );
}

/** Every process the results list has ended (a server whose stop was awaited may take a moment
 * to leave the process table after it said it stopped). */
async function expectAllStopped(results: Results) {
  expect(results.processes.length).toBeGreaterThan(0);
  await waitFor(() => !results.processes.some((p) => running(p.pid)), {
    what: "the listed processes ended",
    timeout: 5_000,
    every: 250,
  }).catch(() => undefined); // what still runs is named below
  for (const { label, pid } of results.processes) {
    expect(running(pid), `${label} (pid ${pid}) still running`).toBe(false);
  }
}

describe("npm run bench on a bad day", () => {
  it("without Chromium: the browser rows are skipped, the run completes and stops everything", async () => {
    const run = await benchRun("no-chromium", {
      BENCH_ONLY: "lighthouse,browser",
      CHROMIUM_PATH: "/nonexistent/chromium",
    });
    expect(run.code, run.output).toBe(0);
    expect(run.results.complete).toBe(true);
    const skipped = run.results.rows.filter((r) =>
      r.figure.startsWith("skipped: no Chromium at /nonexistent/chromium"),
    );
    expect(skipped.map((r) => r.scenario)).toEqual([
      "Lighthouse (mobile) /",
      "Lighthouse (mobile) /auctions",
      expect.stringContaining("a bid seen in another browser"),
    ]);
    expect(skipped.every((r) => r.met === null)).toBe(true);
    await expectAllStopped(run.results);
    expect(await leftovers(run.group)).toEqual([]);
  }, 240_000);

  it("a part that fails: the rows measured before it are written, and nothing is left running", async () => {
    const run = await benchRun("fails", {
      BENCH_ONLY: "js,lighthouse",
      BENCH_FAIL_AT: "lighthouse",
    });
    expect(run.code).toBe(1);
    expect(run.results.complete).toBe(false);
    expect(run.results.stoppedBy).toContain("BENCH_FAIL_AT=lighthouse");
    // the four first-visit rows were measured before the failure, and kept
    expect(
      run.results.rows.filter((r) => r.scenario.startsWith("JavaScript a first visit")),
    ).toHaveLength(4);
    expect(run.results.rows.at(-1)).toMatchObject({ scenario: "the run", met: false });
    expect(run.results.processes.map((p) => p.label)).toEqual(
      expect.arrayContaining([expect.stringContaining("PostgreSQL"), "the production server"]),
    );
    await expectAllStopped(run.results);
    expect(await leftovers(run.group)).toEqual([]);
  }, 240_000);

  it("stopped by Ctrl-C in the middle of the page rows: rows written, the reference app stopped too", async () => {
    const run = await benchRun(
      "interrupted",
      { BENCH_ONLY: "pages", BENCH_SECONDS: "4" },
      /\/healthz, a resource route with one query/,
    );
    expect(run.code).toBe(1);
    expect(run.results.complete).toBe(false);
    expect(run.results.stoppedBy).toContain("SIGINT");
    expect(run.results.rows.some((r) => r.scenario.startsWith("/healthz"))).toBe(true);
    expect(run.results.processes.map((p) => p.label)).toEqual(
      expect.arrayContaining(["the reference app", "the production server"]),
    );
    await expectAllStopped(run.results);
    expect(await leftovers(run.group)).toEqual([]);
  }, 240_000);
});
