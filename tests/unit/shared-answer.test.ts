// The filter counts' cache: one query in flight shared by every caller, the copy served at once
// while one refresh runs behind it, and never a query per request (docs/decisions/2805).
import { describe, expect, it, vi } from "vitest";
import { sharedAnswer } from "~/platform/shared-answer.server";
import { nextTurn } from "../support/wait";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("sharedAnswer", () => {
  it("shares one load among every caller while it runs", async () => {
    const gate = deferred<number>();
    const load = vi.fn(() => gate.promise);
    const answer = sharedAnswer({ name: "t", freshMs: 1000, load, clock: () => 0 });
    const callers = Array.from({ length: 50 }, () => answer.get());
    expect(load).toHaveBeenCalledTimes(1);
    gate.resolve(42);
    expect(await Promise.all(callers)).toEqual(Array(50).fill(42));
    expect(await answer.get()).toBe(42);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("serves the stale copy at once and refreshes it once behind the callers", async () => {
    let time = 0;
    let next = deferred<number>();
    const load = vi.fn(() => next.promise);
    const answer = sharedAnswer({ name: "t", freshMs: 1000, load, clock: () => time });
    const first = answer.get();
    next.resolve(1);
    expect(await first).toBe(1);

    time = 1500;
    next = deferred<number>();
    // Stale: each caller gets the old copy without waiting, and only one refresh starts.
    expect(await Promise.all([answer.get(), answer.get(), answer.get()])).toEqual([1, 1, 1]);
    expect(load).toHaveBeenCalledTimes(2);
    next.resolve(2);
    await next.promise;
    await Promise.resolve();
    expect(await answer.get()).toBe(2);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("keeps serving the old copy when a refresh fails, and tries again later", async () => {
    let time = 0;
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const load = vi
      .fn<() => Promise<number>>()
      .mockResolvedValueOnce(1)
      .mockRejectedValueOnce(new Error("database away"))
      .mockResolvedValueOnce(3);
    const answer = sharedAnswer({ name: "t", freshMs: 1000, load, clock: () => time });
    expect(await answer.get()).toBe(1);
    time = 2000;
    expect(await answer.get()).toBe(1);
    await nextTurn(); // the refresh in the background has run
    expect(errors).toHaveBeenCalledTimes(1);
    expect(await answer.get()).toBe(1);
    await nextTurn(); // the refresh in the background has run
    expect(await answer.get()).toBe(3);
    expect(load).toHaveBeenCalledTimes(3);
    errors.mockRestore();
  });

  it("a first load that fails fails its callers, and the next get loads again", async () => {
    const load = vi
      .fn<() => Promise<number>>()
      .mockRejectedValueOnce(new Error("down"))
      .mockResolvedValueOnce(7);
    const answer = sharedAnswer({ name: "t", freshMs: 1000, load, clock: () => 0 });
    await expect(answer.get()).rejects.toThrow("down");
    expect(await answer.get()).toBe(7);
  });

  it("forget drops the copy and a load started before it", async () => {
    const gate = deferred<number>();
    const load = vi
      .fn<() => Promise<number>>()
      .mockImplementationOnce(() => gate.promise)
      .mockResolvedValueOnce(9);
    const answer = sharedAnswer({ name: "t", freshMs: 1000, load, clock: () => 0 });
    const old = answer.get();
    answer.forget();
    expect(await answer.get()).toBe(9);
    gate.resolve(8);
    expect(await old).toBe(8);
    expect(await answer.get()).toBe(9);
  });
});
