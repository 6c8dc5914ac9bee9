// The soak reads each instance's metrics port (METRICS_PORT) as Fly's Prometheus would: while
// the traffic runs (the figures are printed and kept) and before and after it (what the closer and
// housekeeping did, summed over the instances).

export type Scrape = { text: string; at: number };

/**
 * One read of the metrics port, tried up to three times: the primary answers 503 when a worker
 * is too busy to send its metrics within 5 s, as Prometheus would see on a saturated machine.
 */
export async function scrape(port: number): Promise<Scrape> {
  let last = "";
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const signal = AbortSignal.timeout(15_000);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`, { signal });
      if (response.status === 200) return { text: await response.text(), at: Date.now() };
      last = `answered ${response.status}`;
      await response.arrayBuffer();
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  throw new Error(`metrics on :${port}: ${last}`);
}

/** Sum of the samples of `name` whose labels include every pair in `labels`. */
export function sample(text: string, name: string, labels: Record<string, string> = {}) {
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = match[2] ?? "";
    if (Object.entries(labels).every(([k, v]) => given.includes(`${k}="${v}"`)))
      total += Number(match[3]);
  }
  return total;
}

/** The metrics the README documents: the soak checks each is on the port. */
export const DOCUMENTED_METRICS = [
  "bidyard_http_request_duration_seconds_bucket",
  "bidyard_bids_total",
  "bidyard_rate_limited_total",
  "bidyard_live_streams_open",
  "bidyard_live_streams_refused_total",
  "bidyard_mail_outbox_depth",
  "bidyard_jobs_waiting",
  "bidyard_jobs_oldest_waiting_seconds",
  "bidyard_auction_close_lag_seconds",
  "bidyard_auction_close_delay_seconds_bucket",
  "bidyard_auction_lots_closed_total",
  "bidyard_db_pool_connections",
  "bidyard_db_pool_waiting",
  "bidyard_db_pool_acquire_seconds_bucket",
  "nodejs_eventloop_lag_seconds",
  "nodejs_eventloop_lag_p99_seconds",
  "process_resident_memory_bytes",
  "nodejs_heap_size_used_bytes",
  "bidyard_server_resident_memory_bytes",
  "bidyard_server_memory_bytes",
  "bidyard_workers",
  "bidyard_worker_restarts_total",
];

/** A few figures from one scrape, on one line. */
export function figures(text: string) {
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  const placed = sample(text, "bidyard_bids_total", { outcome: "placed" });
  const refused = sample(text, "bidyard_bids_total", { outcome: "refused" });
  return [
    `requests ${sample(text, "bidyard_http_request_duration_seconds_count")}`,
    `bids ${placed} placed / ${refused} refused`,
    `streams open ${sample(text, "bidyard_live_streams_open")}`,
    `outbox pending ${sample(text, "bidyard_mail_outbox_depth", { status: "pending" })}`,
    `jobs waiting ${sample(text, "bidyard_jobs_waiting")}, oldest ${sample(text, "bidyard_jobs_oldest_waiting_seconds").toFixed(1)} s`,
    `close lag ${sample(text, "bidyard_auction_close_lag_seconds").toFixed(1)} s`,
    `pool in use ${sample(text, "bidyard_db_pool_connections", { state: "in_use" })}/${sample(text, "bidyard_db_pool_connections", { state: "max" })}, waiting ${sample(text, "bidyard_db_pool_waiting")}`,
    `event-loop lag p99 ${(sample(text, "nodejs_eventloop_lag_p99_seconds") * 1000).toFixed(1)} ms (mean of workers)`,
    `server RSS ${mb(sample(text, "bidyard_server_resident_memory_bytes"))}, PSS ${mb(sample(text, "bidyard_server_memory_bytes"))}`,
  ].join("; ");
}
