// Two "regions" on one machine: a TCP proxy that puts a far instance's database connection a
// round trip away, and an HTTP proxy standing in for Fly's edge (fly-replay and all).
import http from "node:http";
import net from "node:net";
import { performance } from "node:perf_hooks";
import { PassThrough, type Readable } from "node:stream";

/**
 * Sends what `from` reads to `to` `delayMs()` after it arrived, in order: each chunk waits in a
 * queue until its time (a timer may fire a millisecond early, so the time is checked, not trusted).
 * `sent` sees each chunk as it goes on.
 */
function delayedPipe(
  from: net.Socket,
  to: net.Socket,
  delayMs: () => number,
  sent: (chunk: Buffer) => void = () => undefined,
) {
  const queue: Array<{ due: number; chunk: Buffer | null }> = [];
  let timer: NodeJS.Timeout | undefined;
  const deliver = (chunk: Buffer | null) => {
    if (chunk === null) return void to.end();
    to.write(chunk);
    sent(chunk);
  };
  const drain = () => {
    timer = undefined;
    const now = performance.now();
    while (queue.length && queue[0]!.due <= now) {
      const { chunk } = queue.shift()!;
      if (to.destroyed) return;
      deliver(chunk);
    }
    if (queue.length) timer = setTimeout(drain, Math.max(1, Math.ceil(queue[0]!.due - now)));
  };
  const push = (chunk: Buffer | null) => {
    const delay = delayMs();
    // no delay and nothing waiting: straight on
    if (delay <= 0 && queue.length === 0) return void (to.destroyed || deliver(chunk));
    queue.push({ due: performance.now() + delay, chunk });
    if (!timer) timer = setTimeout(drain, Math.max(1, Math.ceil(delay)));
  };
  from.on("data", (chunk: Buffer) => push(chunk));
  from.on("end", () => push(null));
  from.on("close", () => {
    if (!from.readableEnded) {
      clearTimeout(timer);
      to.destroy();
    }
  });
}

/**
 * A TCP proxy on 127.0.0.1 to `target` that holds each byte delayMs/2 on the way there and
 * delayMs/2 on the way back: one request and its answer cost `delayMs` more. `delayMs` may be
 * changed while it runs (0 while a test sets up); `watch` is told when a chunk holding its text
 * reaches the target (a statement reaching the database, say).
 */
export async function delayedTcp(
  target: { host: string; port: number },
  delayMs: number,
): Promise<{
  port: number;
  delayMs: number;
  watch: { text: string; reached: () => void } | null;
  close(): Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const half = () => proxy.delayMs / 2;
  const toTarget = (chunk: Buffer) => {
    if (proxy.watch && chunk.includes(proxy.watch.text)) proxy.watch.reached();
  };
  // half-open both ways: a side that has finished sending still gets what is on its way to it
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    const upstream = net.connect({ port: target.port, host: target.host, allowHalfOpen: true });
    track(client);
    track(upstream);
    delayedPipe(client, upstream, half, toTarget);
    delayedPipe(upstream, client, half);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const proxy = {
    port: (server.address() as net.AddressInfo).port,
    delayMs,
    watch: null as { text: string; reached: () => void } | null,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return proxy;
}

/** Fly replays a request only if its body is at most this long (it buffers it at the edge). */
export const REPLAY_BODY_LIMIT = 1024 * 1024;

export type Served = { method: string; path: string; region: string; replayed: boolean };

// Headers about one hop, not the request: not passed on.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
]);

/** The parameters of a `fly-replay` answer header: "region=dfw;state=x" → { region, state }. */
export function parseFlyReplay(header: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    params[part.slice(0, at).trim().toLowerCase()] = part.slice(at + 1).trim();
  }
  return params;
}

const sleep = (ms: number) =>
  ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

/**
 * An HTTP proxy standing in for Fly's edge near a buyer. Each request goes to the `entry` region's
 * instance; an answer carrying `fly-replay: region=X` is dropped and the same request (method, path,
 * headers, the body the edge buffered) is sent to X's instance with `fly-replay-src`. Bodies over
 * 1 MB are streamed, not buffered, and cannot be replayed: a replay asked for one is a 502. Before a
 * request goes to a region the proxy waits `delayMs[region]`, the round trip between the buyer's
 * edge and it. Answers stream through as they come (server-sent events flow).
 */
export async function regionProxy(options: {
  regions: Record<string, string>;
  entry: string;
  delayMs: Record<string, number>;
}): Promise<{ url: string; close(): Promise<void>; served: Served[] }> {
  const { regions, entry } = options;
  if (!regions[entry]) throw new Error(`the entry region ${entry} has no instance`);
  const served: Served[] = [];
  const agent = new http.Agent({ keepAlive: false });
  const upstreams = new Set<http.ClientRequest>();

  const forward = async (
    region: string,
    request: http.IncomingMessage,
    headers: http.OutgoingHttpHeaders,
    body: Buffer[] | Readable,
  ): Promise<http.IncomingMessage> => {
    await sleep(options.delayMs[region] ?? 0);
    const base = new URL(regions[region]!);
    return new Promise((resolve, reject) => {
      const upstream = http.request({
        agent,
        host: base.hostname,
        port: base.port,
        method: request.method,
        path: request.url,
        headers,
      });
      upstreams.add(upstream);
      upstream.on("close", () => upstreams.delete(upstream));
      upstream.on("response", resolve);
      upstream.on("error", reject);
      if (Array.isArray(body)) {
        for (const chunk of body) upstream.write(chunk);
        upstream.end();
      } else {
        body.pipe(upstream);
      }
    });
  };

  const relay = (from: http.IncomingMessage, to: http.ServerResponse) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(from.headers)) {
      if (!HOP_BY_HOP.has(name) && name !== "fly-replay" && value !== undefined) {
        headers[name] = value;
      }
    }
    to.writeHead(from.statusCode ?? 502, headers);
    to.flushHeaders();
    from.pipe(to);
    // a client gone before the answer ended (an event stream left) ends the instance's answer too
    to.on("close", () => {
      if (!from.complete) from.destroy();
    });
  };

  const answerError = (response: http.ServerResponse, status: number, text: string) => {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
    response.end(text);
  };

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    }
    headers["x-forwarded-proto"] = "http";
    headers["fly-client-ip"] = request.socket.remoteAddress ?? "";

    // Buffer up to the limit; past it the rest streams to the entry instance and no replay is
    // possible (with a body of unknown length, send it chunked).
    const buffered: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(request.headers["content-length"] ?? 0) > REPLAY_BODY_LIMIT;
    if (!tooLarge) {
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          buffered.push(chunk);
          size += chunk.length;
          if (size > REPLAY_BODY_LIMIT) {
            tooLarge = true;
            request.pause();
            request.off("data", onData);
            request.off("end", resolve);
            resolve();
          }
        };
        request.on("data", onData);
        request.once("end", resolve);
        request.once("error", reject);
      });
    }
    if (!tooLarge && request.headers["transfer-encoding"]) {
      headers["content-length"] = String(size);
    }

    let body: Buffer[] | Readable = buffered;
    if (tooLarge) {
      if (!request.headers["content-length"]) headers["transfer-encoding"] = "chunked";
      // the chunks already read go first, then the rest of the request as it comes
      const rest = new PassThrough();
      for (const chunk of buffered) rest.write(chunk);
      request.pipe(rest);
      body = rest;
    }

    const path = request.url ?? "/";
    const method = request.method ?? "GET";
    const first = await forward(entry, request, headers, body);
    const replay = first.headers["fly-replay"];
    const target = typeof replay === "string" ? parseFlyReplay(replay) : {};
    if (!target.region || target.region === entry) {
      served.push({ method, path, region: entry, replayed: false });
      relay(first, response);
      return;
    }
    first.resume(); // the entry instance's answer is dropped
    if (tooLarge) return answerError(response, 502, "body too large to replay");
    if (!regions[target.region]) {
      return answerError(response, 502, `no instance in region ${target.region}`);
    }
    headers["fly-replay-src"] = `instance=${entry}-1;region=${entry};state=${target.state ?? ""}`;
    const second = await forward(target.region, request, headers, buffered);
    served.push({ method, path, region: target.region, replayed: true });
    relay(second, response);
  };

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: Error) =>
      answerError(response, 502, `proxy: ${error.message}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const upstream of upstreams) upstream.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}
