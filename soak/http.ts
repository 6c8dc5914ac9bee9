// The soak's HTTP client: every request is counted by kind (what the simulated user was doing)
// and by route (the path with its ids folded), with its status class and latency.

export type Sent = {
  status: number;
  headers: Headers;
  text: string;
  ms: number;
  /** the server instance that answered */
  instance: string;
  /** the body's bytes, when asked for (`bytes: true`) */
  bytes?: Uint8Array;
};

type Tally = {
  requests: number;
  s2xx: number;
  s3xx: number;
  s4xx: number;
  s5xx: number;
  errors: number;
  latencies: number[];
};

const blank = (): Tally => ({
  requests: 0,
  s2xx: 0,
  s3xx: 0,
  s4xx: 0,
  s5xx: 0,
  errors: 0,
  latencies: [],
});

/**
 * /auctions/123 → /auctions/:id, /objects/kyc/<32 random characters> → /objects/kyc/:key, tokens
 * and query strings dropped: one row per route.
 */
export function routeOf(method: string, path: string) {
  const bare = path.split("?")[0];
  const folded = bare
    .split("/")
    .map((part) => (/^\d+$/.test(part) ? ":id" : /^[A-Za-z0-9_-]{32}$/.test(part) ? ":key" : part))
    .join("/");
  return `${method} ${folded || "/"}`;
}

export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export class Traffic {
  readonly byKind = new Map<string, Tally>();
  readonly byRoute = new Map<string, Tally>();
  readonly failures: string[] = [];
  readonly statuses = new Map<string, number>();
  inFlight = 0;

  /** Requests per server instance (the base they went to). */
  readonly byInstance = new Map<string, number>();

  /**
   * `base` is the first instance; `instances` the servers a request may reach: each request goes to one of them at random, as
   * Fly's proxy spreads requests over machines (SOAK_INSTANCES).
   */
  constructor(
    readonly base: string,
    private readonly timeoutMs = 30_000,
    readonly instances: string[] = [base],
  ) {}

  /** One of the instances, at random. */
  pickInstance() {
    return this.instances[Math.floor(Math.random() * this.instances.length)];
  }

  /** Another instance than `instance`, at random (the same one when there is only one). */
  otherInstance(instance: string) {
    const others = this.instances.filter((base) => base !== instance);
    return others.length ? others[Math.floor(Math.random() * others.length)] : instance;
  }

  private tally(map: Map<string, Tally>, key: string) {
    let t = map.get(key);
    if (!t) map.set(key, (t = blank()));
    return t;
  }

  /**
   * One request, never following redirects (the simulated browser decides what to follow).
   * Network errors and timeouts are counted as errors and answered as status 0.
   */
  async send(
    kind: string,
    path: string,
    init: {
      method?: string;
      cookie?: string;
      json?: unknown;
      form?: Record<string, string>;
      multipart?: FormData;
      /** a raw body (a file PUT to an upload URL) with the headers the upload URL was signed for */
      body?: { bytes: Uint8Array; headers: Record<string, string> };
      accept?: string;
      /** the instance to send it to (one of `instances`); at random when omitted */
      instance?: string;
      /** keep the body's bytes (a file read back), not only its text */
      bytes?: boolean;
    } = {},
  ): Promise<Sent> {
    const method =
      init.method ?? (init.json || init.form || init.multipart || init.body ? "POST" : "GET");
    const headers: Record<string, string> = {};
    if (init.cookie) headers.cookie = init.cookie;
    if (init.accept) headers.accept = init.accept;
    let body: BodyInit | undefined;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.form) {
      body = new URLSearchParams(init.form);
    } else if (init.multipart) {
      body = init.multipart;
    } else if (init.body) {
      for (const [name, value] of Object.entries(init.body.headers))
        headers[name.toLowerCase()] = value;
      body = init.body.bytes as BodyInit;
    }
    // An absolute URL the app gave to its own origin (a redirect) goes to any instance too; one
    // to another origin (the bucket's signed URLs) goes there, as a browser's would.
    const origin = path.startsWith("http") ? new URL(path).origin : null;
    const external = origin !== null && !this.instances.includes(origin);
    const local = origin ? path.slice(origin.length) : path;
    const instance = external ? origin : (init.instance ?? this.pickInstance());
    // a browser sends the origin of the page it is on: the instance's (each instance's APP_URL
    // is its own address here; on Fly every machine serves the one public origin)
    if (method !== "GET" && !external) headers.origin = instance;
    if (!external) this.byInstance.set(instance, (this.byInstance.get(instance) ?? 0) + 1);
    const url = `${instance}${local}`;
    const route = external ? `${method} (object storage)` : routeOf(method, new URL(url).pathname);
    const kindTally = this.tally(this.byKind, kind);
    const routeTally = this.tally(this.byRoute, route);
    const started = performance.now();
    this.inFlight += 1;
    // Held here until the request ends: fetch keeps only a weak reference to its signal, and a
    // timeout signal nothing else holds can be collected before it fires, leaving the request
    // (and its visit) waiting forever.
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await fetch(url, {
        method,
        headers,
        body,
        redirect: "manual",
        signal,
      });
      const bytes = init.bytes ? new Uint8Array(await response.arrayBuffer()) : undefined;
      const text = bytes ? "" : await response.text();
      const ms = performance.now() - started;
      for (const t of [kindTally, routeTally]) {
        t.requests += 1;
        t.latencies.push(ms);
        const status = response.status;
        if (status >= 500) t.s5xx += 1;
        else if (status >= 400) t.s4xx += 1;
        else if (status >= 300) t.s3xx += 1;
        else t.s2xx += 1;
      }
      const statusKey = `${route} ${response.status}`;
      this.statuses.set(statusKey, (this.statuses.get(statusKey) ?? 0) + 1);
      if (response.status >= 500 && this.failures.length < 50)
        this.failures.push(`${response.status} ${method} ${path}: ${text.slice(0, 300)}`);
      return { status: response.status, headers: response.headers, text, ms, instance, bytes };
    } catch (error) {
      const ms = performance.now() - started;
      for (const t of [kindTally, routeTally]) {
        t.requests += 1;
        t.errors += 1;
      }
      if (this.failures.length < 50)
        this.failures.push(`error ${method} ${path}: ${(error as Error).message}`);
      return { status: 0, headers: new Headers(), text: "", ms, instance };
    } finally {
      this.inFlight -= 1;
      void signal.aborted;
    }
  }

  totals() {
    const all = blank();
    for (const t of this.byKind.values()) {
      all.requests += t.requests;
      all.s2xx += t.s2xx;
      all.s3xx += t.s3xx;
      all.s4xx += t.s4xx;
      all.s5xx += t.s5xx;
      all.errors += t.errors;
      all.latencies.push(...t.latencies);
    }
    return all;
  }

  static line(name: string, t: Tally, width: number) {
    const sorted = [...t.latencies].sort((a, b) => a - b);
    const cell = (n: number, w = 7) => String(n).padStart(w);
    return (
      `  ${name.padEnd(width)}${cell(t.requests)}${cell(t.s2xx)}${cell(t.s3xx)}${cell(t.s4xx)}` +
      `${cell(t.s5xx, 5)}${cell(t.errors, 5)}${cell(Math.round(percentile(sorted, 50)), 8)}` +
      `${cell(Math.round(percentile(sorted, 95)), 7)}${cell(Math.round(percentile(sorted, 99)), 7)}`
    );
  }

  static header(first: string, width: number) {
    return (
      `  ${first.padEnd(width)}${"reqs".padStart(7)}${"2xx".padStart(7)}${"3xx".padStart(7)}` +
      `${"4xx".padStart(7)}${"5xx".padStart(5)}${"err".padStart(5)}${"p50 ms".padStart(8)}` +
      `${"p95".padStart(7)}${"p99".padStart(7)}`
    );
  }
}
