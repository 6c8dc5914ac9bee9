// The production server's cut for slow event-stream readers (server/event-streams.ts, decision
// records 1801 and its revision): decided by the answer's Content-Type, so a client that leaves
// out `Accept: text/event-stream` and never reads is cut too, not buffered without bound.
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  dropSlowEventStreams,
  eventStreamWriter,
  STREAM_BACKLOG_LIMIT,
} from "../../server/event-streams.ts";

type Outcome = { written: number; cut: boolean; peak: number };

const servers: http.Server[] = [];
const sockets: net.Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) server.close();
});

const CHUNK = Buffer.alloc(64 * 1024, "d");
/** Far more than the kernel's socket buffers on both ends hold. */
const TOTAL = 48 * 1024 * 1024;

/** How the answer's body is written: the response's own write, or the direct stream writer. */
type Writer = { write: (chunk: Buffer) => void; backlog: () => number };

/**
 * Serves one answer through the middleware (`answer` sets its headers, and may return its own
 * writer), writing as fast as it can to a client that sends `request` and never reads; reports
 * what the server got to write, the largest backlog it saw, and whether the connection was cut
 * before the end.
 */
function slowReader(request: string, answer: (res: http.ServerResponse) => Writer | void) {
  return new Promise<Outcome>((resolve) => {
    const server = http.createServer((req, res) => {
      dropSlowEventStreams(req, res, () => {
        const writer = answer(res) ?? {
          write: (chunk: Buffer) => res.write(chunk),
          backlog: () => res.writableLength,
        };
        let written = 0;
        let peak = 0;
        let done = false;
        const finish = (cut: boolean) => {
          if (done) return;
          done = true;
          resolve({ written, cut, peak });
        };
        res.on("close", () => finish(true));
        const pump = () => {
          if (res.destroyed || res.socket?.destroyed) return;
          if (written >= TOTAL) {
            // all of it was taken into memory: not cut
            finish(false);
            return res.destroy();
          }
          writer.write(CHUNK);
          written += CHUNK.length;
          peak = Math.max(peak, writer.backlog());
          setImmediate(pump);
        };
        pump();
      });
    });
    servers.push(server);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
      socket.pause(); // never reads
      sockets.push(socket);
    });
  });
}

const GET = "GET /live/lots/1 HTTP/1.1\r\nHost: localhost\r\n";

describe("a slow reader of an event stream", () => {
  it("is cut when it never reads, though its request did not ask for an event stream", async () => {
    const outcome = await slowReader(`${GET}\r\n`, (res) => {
      res.setHeader("Content-Type", "text/event-stream");
      res.flushHeaders();
    });
    expect(outcome.cut).toBe(true);
    expect(outcome.written).toBeLessThan(TOTAL);
    // cut as soon as the backlog passed the limit: never more than one chunk beyond it
    expect(outcome.peak).toBeLessThanOrEqual(STREAM_BACKLOG_LIMIT + CHUNK.length);
  });

  it("is cut when the type is given to writeHead rather than set on the answer", async () => {
    const outcome = await slowReader(`${GET}Accept: */*\r\n\r\n`, (res) => {
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    });
    expect(outcome.cut).toBe(true);
    expect(outcome.peak).toBeLessThanOrEqual(STREAM_BACKLOG_LIMIT + CHUNK.length);
  });

  it("is cut when its events are written straight to the socket (the server's live streams)", async () => {
    const outcome = await slowReader(`${GET}\r\n`, (res) => {
      res.setHeader("Content-Type", "text/event-stream");
      const writer = eventStreamWriter(res);
      return { write: writer.write, backlog: () => res.socket?.writableLength ?? 0 };
    });
    expect(outcome.cut).toBe(true);
    expect(outcome.written).toBeLessThan(TOTAL);
    expect(outcome.peak).toBeLessThanOrEqual(STREAM_BACKLOG_LIMIT + CHUNK.length);
  });

  it("the direct writer sends the headers, then the events as they are, until the end", async () => {
    // the second event is written once the client has the headers: the answer is a stream
    let headersSeen = () => {};
    const seen = new Promise<void>((resolve) => (headersSeen = resolve));
    const server = http.createServer((_req, res) => {
      res.setHeader("Content-Type", "text/event-stream");
      const writer = eventStreamWriter(res);
      writer.write("event: lot\ndata: 1\n\n");
      void seen.then(() => {
        writer.write("event: lot\ndata: 2\n\n");
        writer.end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`);
    headersSeen();
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("transfer-encoding")).toBeNull();
    expect(await response.text()).toBe("event: lot\ndata: 1\n\nevent: lot\ndata: 2\n\n");
  });

  it("leaves every other answer's write alone (no wrapper on the common path)", async () => {
    const server = http.createServer((req, res) => {
      dropSlowEventStreams(req, res, () => {
        res.setHeader("Content-Type", "text/html");
        res.writeHead(200);
        const plain = res.write === http.ServerResponse.prototype.write;
        res.end(String(plain));
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`, {
      headers: { Accept: "text/event-stream" },
    });
    expect(await response.text()).toBe("true");
  });
});
