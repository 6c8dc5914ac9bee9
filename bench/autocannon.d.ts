// The little of autocannon 9's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";
  type RawRequest = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  };
  type Options = {
    url: string;
    method?: string;
    connections?: number;
    /** requests per second over all connections */
    overallRate?: number;
    amount?: number;
    duration?: number;
    timeout?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    requests?: Array<{
      setupRequest?: (request: RawRequest, context: object) => RawRequest;
      onResponse?: (status: number, body: string, context: object) => void;
    }>;
  };
  type Result = {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "1xx": number;
    "2xx": number;
    "3xx": number;
    "4xx": number;
    "5xx": number;
    requests: { total: number; average: number };
    latency: { p50: number; p99: number; p90: number; average: number };
  };
  type Instance = EventEmitter & {
    on(
      event: "response",
      listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
    ): Instance;
  };
  export default function autocannon(
    options: Options,
    callback: (error: Error | null, result: Result) => void,
  ): Instance;
}
