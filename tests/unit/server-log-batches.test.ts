// The server's log lines go out a batch per turn of the event loop, whole (docs/decisions/3406).
import { describe, expect, it } from "vitest";
import pino from "pino";
import { lineBatcher, logOptions, PIPE_BUF } from "../../server/log.ts";

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("the log's line batches", () => {
  it("writes the lines of one turn together, in order, once the turn ends", async () => {
    const writes: string[] = [];
    const batch = lineBatcher((text) => writes.push(text));
    batch.write('{"level":"info","n":1}\n');
    batch.write('{"level":"info","n":2}\n');
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toEqual(['{"level":"info","n":1}\n{"level":"info","n":2}\n']);
    batch.write('{"level":"info","n":3}\n');
    await turn();
    expect(writes[1]).toBe('{"level":"info","n":3}\n');
  });

  it("never writes more than PIPE_BUF bytes of several lines at once, nor part of a line", async () => {
    const writes: string[] = [];
    const batch = lineBatcher((text) => writes.push(text));
    // 300 bytes each, some of them two bytes a character
    const lines = Array.from(
      { length: 60 },
      (_, i) => `{"level":"info","i":${String(i).padStart(3, "0")},"x":"${"é".repeat(135)}"}\n`,
    );
    for (const line of lines) batch.write(line);
    const long = `{"level":"info","x":"${"a".repeat(PIPE_BUF * 2)}"}\n`;
    batch.write(long);
    await turn();
    expect(writes.join("")).toBe(lines.join("") + long);
    for (const text of writes) {
      expect(text.endsWith("\n")).toBe(true);
      if (text !== long) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PIPE_BUF);
    }
    expect(writes.length).toBeGreaterThan(4);
  });

  it("writes an error line at once, with the lines before it", () => {
    const writes: string[] = [];
    const batch = lineBatcher((text) => writes.push(text));
    batch.write('{"level":"info","n":1}\n');
    batch.write('{"level":"error","msg":"boom"}\n');
    expect(writes).toEqual(['{"level":"info","n":1}\n{"level":"error","msg":"boom"}\n']);
  });

  it("the server's own lines start with their level: an error is written at once", () => {
    const writes: string[] = [];
    const log = pino(
      logOptions({}),
      lineBatcher((text) => writes.push(text)),
    );
    log.info("queued");
    log.error({ err: new Error("boom") }, "failed");
    expect(writes).toHaveLength(1);
    const [first, second] = writes[0].trim().split("\n");
    expect(first.startsWith('{"level":"info"')).toBe(true);
    expect(second.startsWith('{"level":"error"')).toBe(true);
    expect(JSON.parse(second)).toMatchObject({ msg: "failed", err: { message: "boom" } });
  });
});
