// The bench's ablation switches (server/ablation.ts, docs/decisions/3401): a server switches a piece
// off only when the bench's own variable is set too, never on Fly, and never for a piece it does
// not know. Without the bench's variable, BIDYARD_ABLATE is not even read.
import { afterEach, describe, expect, it } from "vitest";
import { installAblation } from "../../server/ablation.ts";
import { ABLATION_KEY, ablated, readUnlessAblated } from "../../app/utils/ablation.ts";

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[ABLATION_KEY];
});

describe("bench ablation switches", () => {
  it("are ignored without the bench's variable, as on every production server", () => {
    const off = installAblation({ BIDYARD_ABLATE: "log,metrics,headers", NODE_ENV: "production" });
    expect(off.size).toBe(0);
    expect(ablated("log")).toBe(false);
    expect(ablated("headers")).toBe(false);
  });

  it("refuse to run on Fly even with the bench's variable", () => {
    expect(() =>
      installAblation({
        BIDYARD_BENCH_ABLATION: "1",
        BIDYARD_ABLATE: "log",
        FLY_APP_NAME: "bidyard",
      }),
    ).toThrow(/bench/);
    expect(ablated("log")).toBe(false);
  });

  it("refuse a piece they do not know", () => {
    expect(() => installAblation({ BIDYARD_BENCH_ABLATION: "1", BIDYARD_ABLATE: "lgo" })).toThrow(
      /lgo/,
    );
  });

  it("switch off exactly the pieces named on a bench server", async () => {
    const off = installAblation({ BIDYARD_BENCH_ABLATION: "1", BIDYARD_ABLATE: "cards, log" });
    expect([...off].sort()).toEqual(["cards", "log"]);
    expect(ablated("cards")).toBe(true);
    expect(ablated("metrics")).toBe(false);
    let reads = 0;
    const read = async () => (reads += 1);
    // a piece on: read every time; off: the first answer stands for the rest
    await readUnlessAblated("root-reads", "t1", read);
    await readUnlessAblated("root-reads", "t1", read);
    expect(reads).toBe(2);
    installAblation({ BIDYARD_BENCH_ABLATION: "1", BIDYARD_ABLATE: "root-reads" });
    expect(await readUnlessAblated("root-reads", "t2", read)).toBe(3);
    expect(await readUnlessAblated("root-reads", "t2", read)).toBe(3);
    expect(reads).toBe(3);
  });
});
