// Heap caps sized from the machine's memory (docs/decisions/3005): the primary and its workers
// fit in 80% of it together, and every process is started with a cap.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  machineMemoryMb,
  MEMORY_BUDGET,
  memoryPlan,
  PRIMARY_NODE_ARGS,
  PRIMARY_RESIDENT_MB,
  WORKER_NON_HEAP_MB,
} from "../../server/memory.ts";

/** fly.toml's [[vm]] memory in MB. */
function flyMemoryMb() {
  const toml = readFileSync("fly.toml", "utf8");
  const [, amount, unit] = /^\s*memory\s*=\s*"(\d+)(mb|gb)"/im.exec(toml) ?? [];
  return Number(amount) * (unit.toLowerCase() === "gb" ? 1024 : 1);
}

describe("the memory plan", () => {
  it("fits fly.toml's machine: the primary and its workers at their caps within 80%", () => {
    const memory = flyMemoryMb();
    const workers = Number(/WEB_CONCURRENCY = "(\d+)"/.exec(readFileSync("fly.toml", "utf8"))![1]);
    expect(workers).toBe(2);
    const plan = memoryPlan(memory, workers);
    expect(plan.budgetMb).toBe(Math.floor(memory * MEMORY_BUDGET));
    const atCaps = PRIMARY_RESIDENT_MB + workers * (WORKER_NON_HEAP_MB + plan.workerHeapMb);
    expect(atCaps).toBeLessThanOrEqual(plan.budgetMb);
    // the live heap of a worker under the soak's traffic is about 50 MB: room to spare
    expect(plan.workerHeapMb).toBeGreaterThanOrEqual(64);
    expect(plan.workerNodeArgs).toEqual([
      `--max-old-space-size=${plan.workerHeapMb}`,
      "--max-semi-space-size=8",
    ]);
  });

  it("gives more to each worker on a bigger machine, and less with more workers", () => {
    expect(memoryPlan(2048, 2).workerHeapMb).toBeGreaterThan(memoryPlan(512, 2).workerHeapMb);
    expect(memoryPlan(2048, 4).workerHeapMb).toBeLessThan(memoryPlan(2048, 2).workerHeapMb);
    expect(memoryPlan(64_000, 1).workerHeapMb).toBe(2048);
  });

  it("reads the machine's memory from MACHINE_MEMORY_MB, else the container or the host", () => {
    expect(machineMemoryMb({ MACHINE_MEMORY_MB: "512" })).toBe(512);
    expect(machineMemoryMb({})).toBeGreaterThan(0);
  });

  it("the primary is started with its own cap by npm start and by the image", () => {
    const start = JSON.parse(readFileSync("package.json", "utf8")).scripts.start as string;
    expect(start).toBe(`node ${PRIMARY_NODE_ARGS.join(" ")} build/server/index.js`);
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync("Dockerfile", "utf8"))![1];
    expect(JSON.parse(cmd)).toEqual(["node", ...PRIMARY_NODE_ARGS, "build/server/index.js"]);
  });
});
