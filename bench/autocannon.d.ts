// The little of autocannon 9's API the benchmark uses (the package ships no types).
declare module "autocannon" {
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
    amount?: number;
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: Array<{ setupRequest?: (request: RawRequest, context: object) => RawRequest }>;
  };
  type Result = {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    requests: { total: number; average: number };
    latency: { p50: number; p99: number; p90: number; average: number };
  };
  export default function autocannon(options: Options): Promise<Result>;
}
