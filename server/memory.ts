// How much memory each server process may take (docs/decisions/3005): sized from the machine's
// memory, so the primary and its workers stay under MEMORY_BUDGET of it together. Part of the
// production server (server/index.ts), in its own file so a test can check the sizes.
import { readFileSync } from "node:fs";
import os from "node:os";

/** The share of the machine's memory the server's processes may hold together. */
export const MEMORY_BUDGET = 0.8;

/**
 * What a server process holds besides its JavaScript heap's old generation, measured on the
 * production build (docs/decisions/3005): the primary is a bare Node process that loads no app
 * code (its whole resident size), a worker's code, libraries, native buffers and young generation.
 * Both are RSS, which counts the pages the processes share (the node binary) in each of them: the
 * memory the machine holds (PSS) is well under the sum (record 3211: on Node 24 the primary is
 * 72 MB RSS but 27 MB PSS).
 */
export const PRIMARY_RESIDENT_MB = 52;
export const WORKER_NON_HEAP_MB = 100;

/**
 * The primary's own cap. A process's heap limit is fixed when it starts, so this one is given
 * on the command that starts it (package.json's start, the Dockerfile's CMD); a test checks they
 * say this.
 */
export const PRIMARY_NODE_ARGS = ["--max-old-space-size=32", "--max-semi-space-size=1"];

/** Young generation of a worker: 8 MB semi-spaces (docs/decisions/3409, revising 1909). */
export const WORKER_SEMI_SPACE_MB = 8;

/** Bounds on a worker's old generation, whatever the machine. */
const MIN_WORKER_HEAP_MB = 64;
const MAX_WORKER_HEAP_MB = 2048;

/**
 * The machine's memory in MB: MACHINE_MEMORY_MB when set (the soak runs as on a Fly machine), else
 * the container's limit (cgroup v2, then v1) when there is one, else the host's memory.
 */
export function machineMemoryMb(source: Record<string, string | undefined> = process.env) {
  const given = Number(source.MACHINE_MEMORY_MB);
  if (Number.isFinite(given) && given > 0) return Math.floor(given);
  for (const file of ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]) {
    try {
      const text = readFileSync(file, "utf8").trim();
      const bytes = Number(text);
      // "max", or v1's "no limit" (a number near 2^63), means none
      if (Number.isFinite(bytes) && bytes > 0 && bytes < os.totalmem()) {
        return Math.floor(bytes / 2 ** 20);
      }
    } catch {
      // no such file on this machine
    }
  }
  return Math.floor(os.totalmem() / 2 ** 20);
}

/**
 * Each worker's old-generation cap: what is left of the budget after the primary and every
 * worker's non-heap share, split evenly, within [64, 2048] MB. A 512 MB machine with two workers
 * gives each 78 MB; the live heap after a full collection is about 50 MB under the soak.
 */
export type MemoryPlan = ReturnType<typeof memoryPlan>;

export function memoryPlan(memoryMb: number, workers: number) {
  const budgetMb = Math.floor(memoryMb * MEMORY_BUDGET);
  const forHeaps = budgetMb - PRIMARY_RESIDENT_MB - workers * WORKER_NON_HEAP_MB;
  const workerHeapMb = Math.min(
    MAX_WORKER_HEAP_MB,
    Math.max(MIN_WORKER_HEAP_MB, Math.floor(forHeaps / workers)),
  );
  return {
    memoryMb,
    budgetMb,
    workers,
    workerHeapMb,
    workerNodeArgs: [
      `--max-old-space-size=${workerHeapMb}`,
      `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`,
    ],
  };
}
