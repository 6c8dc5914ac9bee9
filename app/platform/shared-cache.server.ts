// A per-process cache that holds the work in flight, not only its answer (docs/decisions/2904).
// A cache of answers lets every request that misses start the same query again: under 20
// clients, /auctions ran 37 of the same 756 ms count at once. Here an answer younger than
// `freshMs` is served as is; past it, the next request loads a new one and waits for it, and
// every request that comes while that load runs gets the previous answer at once (up to
// `staleMs` old), or, with none, shares the load. So a lone visitor never sees an answer older
// than `freshMs`, and a crowd waits for nothing but one load per `freshMs`.

export type SharedCache<V> = {
  /** The value for `key`: fresh, the previous one while another asker loads, or a new load. */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** Forgets everything (a change the caller knows about). */
  clear(): void;
  /** Entries held (for tests). */
  readonly size: number;
};

type Entry<V> = {
  /** the last answer and when it was loaded; absent until the first load settles */
  value?: { value: V; at: number };
  /** the load in flight, shared by everyone asking meanwhile */
  loading?: Promise<V>;
};

export function sharedCache<V>(options: {
  /** an answer younger than this is served as is */
  freshMs: number;
  /** an older one is served to those who ask while a new one loads, up to this age */
  staleMs: number;
  /** keys kept at most (the oldest is dropped first) */
  max: number;
  now?: () => number;
}): SharedCache<V> {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<V>>();

  function refresh(key: string, entry: Entry<V>, load: () => Promise<V>) {
    const loading = load().then(
      (value) => {
        entry.value = { value, at: now() };
        if (entry.loading === loading) entry.loading = undefined;
        return value;
      },
      (error: unknown) => {
        // a failed load is not kept: the next asker tries again (a stale answer stays usable)
        if (entry.loading === loading) entry.loading = undefined;
        if (!entry.value && entries.get(key) === entry) entries.delete(key);
        throw error;
      },
    );
    entry.loading = loading;
    return loading;
  }

  return {
    get(key, load) {
      let entry = entries.get(key);
      if (!entry) {
        if (entries.size >= options.max) entries.delete(entries.keys().next().value!);
        entry = {};
        entries.set(key, entry);
      }
      const age = entry.value ? now() - entry.value.at : Infinity;
      if (age < options.freshMs) return Promise.resolve(entry.value!.value);
      if (!entry.loading) return refresh(key, entry, load);
      // someone is loading a new answer: the previous one, if still young enough, meanwhile
      if (age < options.staleMs) return Promise.resolve(entry.value!.value);
      return entry.loading;
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
