// The per-process cache that holds the load in flight (docs/decisions/2904).
import { describe, expect, it } from "vitest";
import { sharedCache } from "~/platform/shared-cache.server";

function clock() {
  let at = 1_000_000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

/** A load that answers when told to, counting its calls. */
function gate<V>() {
  let calls = 0;
  const pending: Array<{ resolve: (v: V) => void; reject: (e: unknown) => void }> = [];
  return {
    load: () => {
      calls += 1;
      return new Promise<V>((resolve, reject) => pending.push({ resolve, reject }));
    },
    answer: (value: V) => pending.shift()!.resolve(value),
    fail: (error: unknown) => pending.shift()!.reject(error),
    get calls() {
      return calls;
    },
  };
}

describe("a shared cache", () => {
  it("runs one load for every asker while it is in flight", async () => {
    const time = clock();
    const cache = sharedCache<number>({ freshMs: 5_000, staleMs: 60_000, max: 10, now: time.now });
    const load = gate<number>();
    const askers = Array.from({ length: 20 }, () => cache.get("open", load.load));
    expect(load.calls).toBe(1);
    load.answer(42);
    expect(await Promise.all(askers)).toEqual(Array(20).fill(42));
    expect(await cache.get("open", load.load)).toBe(42);
    expect(load.calls).toBe(1);
  });

  it("past its freshness, one asker loads a new answer while the others get the old one", async () => {
    const time = clock();
    const cache = sharedCache<number>({ freshMs: 5_000, staleMs: 60_000, max: 10, now: time.now });
    const load = gate<number>();
    const first = cache.get("open", load.load);
    load.answer(1);
    await first;
    time.advance(6_000);
    // the first asker past 5 s waits for a new count: a lone visitor never sees an old one
    let settled = false;
    const loader = cache.get("open", load.load).then((value) => ((settled = true), value));
    expect(load.calls).toBe(2);
    // everyone asking meanwhile gets the previous answer at once, and starts nothing
    expect(await Promise.all([1, 2, 3].map(() => cache.get("open", load.load)))).toEqual([1, 1, 1]);
    expect(load.calls).toBe(2);
    expect(settled).toBe(false);
    load.answer(2);
    expect(await loader).toBe(2);
    expect(await cache.get("open", load.load)).toBe(2);
    expect(load.calls).toBe(2);
  });

  it("shares the load, rather than an answer too old to serve", async () => {
    const time = clock();
    const cache = sharedCache<number>({ freshMs: 5_000, staleMs: 60_000, max: 10, now: time.now });
    const load = gate<number>();
    const first = cache.get("open", load.load);
    load.answer(1);
    await first;
    time.advance(61_000);
    const askers = [cache.get("open", load.load), cache.get("open", load.load)];
    expect(load.calls).toBe(2);
    load.answer(7);
    expect(await Promise.all(askers)).toEqual([7, 7]);
  });

  it("keeps no failure: the askers of a failed load see it, the next one loads again", async () => {
    const time = clock();
    const cache = sharedCache<number>({ freshMs: 5_000, staleMs: 60_000, max: 10, now: time.now });
    const load = gate<number>();
    const failed = [cache.get("open", load.load), cache.get("open", load.load)];
    load.fail(new Error("the database went away"));
    for (const asker of failed) await expect(asker).rejects.toThrow("the database went away");
    const again = cache.get("open", load.load);
    expect(load.calls).toBe(2);
    load.answer(3);
    expect(await again).toBe(3);
  });

  it("a failed reload leaves the previous answer for those who asked meanwhile", async () => {
    const time = clock();
    const cache = sharedCache<number>({ freshMs: 5_000, staleMs: 60_000, max: 10, now: time.now });
    const load = gate<number>();
    const first = cache.get("open", load.load);
    load.answer(1);
    await first;
    time.advance(6_000);
    const reload = cache.get("open", load.load);
    expect(await cache.get("open", load.load)).toBe(1);
    load.fail(new Error("timeout"));
    await expect(reload).rejects.toThrow("timeout");
    const again = cache.get("open", load.load);
    expect(load.calls).toBe(3);
    load.answer(4);
    expect(await again).toBe(4);
  });

  it("holds at most `max` keys, dropping the oldest", async () => {
    const cache = sharedCache<number>({ freshMs: 5_000, staleMs: 60_000, max: 2 });
    for (const key of ["a", "b", "c"]) await cache.get(key, async () => key.length);
    expect(cache.size).toBe(2);
  });
});
