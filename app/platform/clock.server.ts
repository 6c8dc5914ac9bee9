/**
 * The server's clock. Every auction rule reads time from here so tests can move time by
 * injecting a clock instead of sleeping.
 */
export type Clock = { now: () => Date };

const systemClock: Clock = { now: () => new Date() };
let current: Clock = systemClock;

export function now(): Date {
  return current.now();
}

export function setClock(clock: Clock) {
  current = clock;
}

export function resetClock() {
  current = systemClock;
}

/** A clock for tests that only moves when told to. */
export function fixedClock(start: Date | string = new Date()) {
  let time = new Date(start).getTime();
  return {
    now: () => new Date(time),
    set: (to: Date | string) => {
      time = new Date(to).getTime();
    },
    advance: (ms: number) => {
      time += ms;
    },
  };
}
