// An open-loop load: request i is sent at start + i / rate whether or not the earlier ones were
// answered, and its latency runs from that scheduled instant (not from when a free connection
// let it go), so a slow answer cannot hide the requests queued behind it. autocannon's
// overallRate starts every connection's once-a-second timer together: its "paced" requests leave
// in bursts, and its latency is the time to drain each burst (docs/decisions/2905).
import http from "node:http";
import { percentile } from "./load";

export type OpenLoopOptions = {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** requests per second, evenly spaced */
  rate: number;
  seconds: number;
  next?: (i: number) => { headers?: Record<string, string>; body?: string };
  answered?: (status: number, body: string) => void;
};

export type OpenLoopResult = {
  sent: number;
  perSecond: number;
  ok: number;
  refused: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
  /** how late the client itself sent, at its worst (a busy client is part of the latency) */
  lateMs: number;
};

const round = (ms: number) => Math.round(ms * 10) / 10;

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  let ok = 0;
  let refused = 0;
  let failed = 0;
  let lateMs = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now() + 10;

  const send = (i: number, scheduled: number) =>
    new Promise<void>((resolve) => {
      const extra = options.next?.(i) ?? {};
      const body = extra.body;
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: options.method ?? "GET",
          agent,
          headers: {
            ...options.headers,
            ...extra.headers,
            ...(body !== undefined ? { "content-length": Buffer.byteLength(body) } : {}),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            latencies.push(performance.now() - scheduled);
            const status = response.statusCode ?? 0;
            if (status >= 200 && status < 300) ok += 1;
            else if (status >= 400 && status < 500) refused += 1;
            else failed += 1;
            options.answered?.(status, Buffer.concat(chunks).toString("utf8"));
            resolve();
          });
        },
      );
      request.on("error", () => {
        failed += 1;
        latencies.push(performance.now() - scheduled);
        resolve();
      });
      request.end(body);
    });

  await new Promise<void>((resolve) => {
    let i = 0;
    const tick = () => {
      const now = performance.now();
      while (i < total && start + i * interval <= now) {
        const scheduled = start + i * interval;
        lateMs = Math.max(lateMs, now - scheduled);
        inFlight.push(send(i, scheduled));
        i += 1;
      }
      if (i < total) setTimeout(tick, Math.max(0, start + i * interval - performance.now()));
      else resolve();
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    sent: total,
    perSecond: Math.round(ok / options.seconds),
    ok,
    refused,
    failed,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies[latencies.length - 1] ?? NaN),
    lateMs: round(lateMs),
  };
}
