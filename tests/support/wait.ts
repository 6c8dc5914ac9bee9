// Waiting for something to happen, not for time to pass (docs/decisions/3641). A test waits for
// the event itself (a promise, a log line, a row, an exit) and says what it waited for if it
// never came; a fixed sleep is left only where the time is the point, with its reason.

type WaitOptions = {
  /** What is awaited, for the failure message: "the worker's start line". */
  what: string;
  /** Give up after this long (ms); 15 s unless told. */
  timeout?: number;
  /** Look again this often (ms); 25 unless told. */
  every?: number;
  /** More to say when it fails (a process's output, the rows seen). */
  detail?: () => string;
};

/**
 * Looks at `check` until it answers something other than false, null or undefined, and answers
 * that; fails with "timed out after … waiting for <what>" if it never does. `check` may be async.
 */
export async function waitFor<T>(
  check: () => T | false | null | undefined | Promise<T | false | null | undefined>,
  { what, timeout = 15_000, every = 25, detail }: WaitOptions,
): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value !== false && value !== null && value !== undefined) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeout} ms waiting for ${what}${detail ? `:\n${detail()}` : ""}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

/** `promise`'s value, or a failure naming `what` if it has not settled within `timeout` ms. */
export async function within<T>(
  promise: Promise<T>,
  { what, timeout = 15_000, detail }: Omit<WaitOptions, "every">,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `timed out after ${timeout} ms waiting for ${what}${detail ? `:\n${detail()}` : ""}`,
          ),
        ),
      timeout,
    );
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** One turn of the event loop: pending I/O callbacks and promise reactions have run. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Resolves when `signal` aborts: a fake server's "hang" (a handler awaiting its request's signal)
 * that only the caller's own timeout can end, so no test waits out a fixed delay for it.
 */
export function untilAborted(signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
