// One load run with autocannon: every response's time is kept so p50/p95/p99 are exact.
import autocannon from "autocannon";

export type LoadOptions = {
  url: string;
  connections: number;
  seconds: number;
  /** requests per second over all connections (open pacing); omit to go as fast as answered */
  rate?: number;
  method?: string;
  headers?: Record<string, string>;
  /** builds each request (path, headers, body) */
  next?: (i: number) => { path?: string; headers?: Record<string, string>; body?: string };
  /** sees each answer's status and body */
  answered?: (status: number, body: string) => void;
};

export type LoadResult = {
  requests: number;
  perSecond: number;
  ok: number;
  refused: number;
  serverErrors: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  /** the slowest answer */
  max: number;
  /** every answer's time, sorted (to merge runs) */
  times: number[];
};

export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function load(options: LoadOptions): Promise<LoadResult> {
  const times: number[] = [];
  let i = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? "GET",
        connections: options.connections,
        duration: options.seconds,
        timeout: 20,
        ...(options.rate ? { overallRate: options.rate } : {}),
        headers: options.headers,
        requests: options.next
          ? [
              {
                setupRequest: (request) => {
                  const extra = options.next!(i++);
                  return {
                    ...request,
                    ...(extra.path ? { path: extra.path } : {}),
                    ...(extra.body !== undefined ? { body: extra.body } : {}),
                    headers: { ...request.headers, ...extra.headers },
                  };
                },
                ...(options.answered
                  ? {
                      onResponse: (status: number, body: string) => options.answered!(status, body),
                    }
                  : {}),
              },
            ]
          : undefined,
      },
      (error, result) => {
        if (error) return reject(error);
        times.sort((a, b) => a - b);
        resolve({
          requests: times.length,
          perSecond: Math.round(times.length / options.seconds),
          ok: result["2xx"],
          refused: result["4xx"],
          serverErrors: result["5xx"],
          errors: result.errors + result.timeouts,
          p50: round(percentile(times, 50)),
          p95: round(percentile(times, 95)),
          p99: round(percentile(times, 99)),
          max: round(times.length ? times[times.length - 1] : NaN),
          times,
        });
      },
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => {
      times.push(responseTime);
    });
  });
}

const round = (ms: number) => Math.round(ms * 10) / 10;
