// One process's copy of an answer that is costly to work out and may be a little old (the filter
// counts of the list pages): every caller shares the one query in flight, and once the copy is
// older than `freshMs` callers still get it at once while a single refresh runs behind them
// (stale-while-revalidate). So the pages never wait on, nor start, a count of their own
// (docs/decisions/2805).

import { log } from "~/platform/log.server";

export type SharedAnswer<T> = {
  /** The answer: the cached copy (refreshed behind the caller when stale), or the one load. */
  get(): Promise<T>;
  /** Forgets the copy; the next get loads again (after an admin's change, say). */
  forget(): void;
};

export function sharedAnswer<T>(options: {
  /** How long a copy is served without a refresh. */
  freshMs: number;
  load: () => Promise<T>;
  /** What a failed background refresh is reported as (the stale copy keeps being served). */
  name: string;
  /** For tests: the time in milliseconds. */
  clock?: () => number;
}): SharedAnswer<T> {
  const clock = options.clock ?? (() => performance.now());
  let copy: { value: T; at: number } | null = null;
  let inFlight: Promise<T> | null = null;
  // Bumped by forget(), so a load that started before it does not put its older answer back.
  let generation = 0;

  function refresh(): Promise<T> {
    if (inFlight) return inFlight;
    const started = generation;
    const load = options.load().then((value) => {
      if (started === generation) copy = { value, at: clock() };
      return value;
    });
    inFlight = load;
    const clear = () => {
      if (inFlight === load) inFlight = null;
    };
    load.then(clear, clear);
    return load;
  }

  return {
    get() {
      if (!copy) return refresh();
      if (clock() - copy.at >= options.freshMs) {
        refresh().catch((error: unknown) =>
          log().error(
            { err: error, answer: options.name },
            "shared answer: refresh failed; serving the older copy",
          ),
        );
      }
      return Promise.resolve(copy.value);
    },
    forget() {
      copy = null;
      inFlight = null;
      generation += 1;
    },
  };
}
