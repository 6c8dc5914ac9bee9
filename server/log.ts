// The server's log (docs/decisions/3002): pino, one JSON object per line on stdout for the
// platform's log shipping; human-readable lines under `npm run dev` (pino-pretty, a dev
// dependency). LOG_LEVEL (default info) and LOG_FORMAT (json | pretty) override.
//
// The logger is made once per process and kept on globalThis, where the app's own modules find it
// (app/platform/log.server.ts): the build is a separate bundle, so a module-level instance would
// not be shared. Code that logs imports it (app code through log() there, server code through
// createLog here); console is left as it is (docs/decisions/3661).
import pino, { type Logger, type LoggerOptions } from "pino";

const LOG_KEY = Symbol.for("bidyard.log");
const shared = globalThis as typeof globalThis & { [LOG_KEY]?: Logger };

type Settings = Record<string, string | undefined>;

/** The JSON lines' settings: the level as a word, first on its line (lineBatcher looks there). */
export function logOptions(source: Settings = process.env): LoggerOptions {
  return {
    level: source.LOG_LEVEL || "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
}

/**
 * Lines go out whole (sync writes of whole lines, a batch per turn of the event loop, lineBatcher):
 * the primary and its workers share stdout, and a write cut inside a line could interleave.
 */
export async function createLog(source: Settings = process.env): Promise<Logger> {
  if (shared[LOG_KEY]) return shared[LOG_KEY];
  const options = logOptions(source);
  const wantsPretty =
    source.LOG_FORMAT === "pretty" || (!source.LOG_FORMAT && source.NODE_ENV === "development");
  let log: Logger | undefined;
  if (wantsPretty) {
    try {
      const { default: pretty } = await import("pino-pretty");
      log = pino(
        options,
        pretty({
          sync: true,
          colorize: process.stdout.isTTY,
          translateTime: "SYS:HH:MM:ss",
          // a request's fields are in its message line
          ignore: "pid,hostname,req_id,method,route,status,ms,user,aborted,stream,problem",
          messageFormat: (line: Record<string, unknown>, key: string) =>
            line.status !== undefined
              ? `${line.method} ${line.route} ${line.status} ${line.ms} ms${line.user ? ` user ${line.user}` : ""}${line.aborted ? " (aborted)" : ""}${line.problem ? ` (${line.problem})` : ""}`
              : String(line[key] ?? ""),
          hideObject: false,
        }),
      );
    } catch {
      // pino-pretty is a dev dependency: a production image has JSON only
    }
  }
  if (!log) {
    const stdout = pino.destination({ dest: 1, sync: true });
    const batch = lineBatcher((text) => stdout.write(text));
    process.on("exit", batch.flush);
    log = pino(options, batch);
  }
  shared[LOG_KEY] = log;
  return log;
}

/** What a pipe writes whole (Linux's PIPE_BUF): a write of at most this many bytes never
 * interleaves with another process's write. */
export const PIPE_BUF = 4096;

/**
 * Whole lines, written a batch at a time (docs/decisions/3406): the lines of one turn of the event
 * loop go out together in one write(2) when the turn ends, never more than PIPE_BUF bytes in one
 * write (a longer line goes alone), so the primary's and the workers' lines still never mix
 * inside a line. An error or fatal line is written at once with what came before it.
 */
export function lineBatcher(write: (text: string) => void) {
  let pending: string[] = [];
  let bytes = 0;
  let scheduled = false;
  function flush() {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.length === 1 ? pending[0] : pending.join("");
    pending = [];
    bytes = 0;
    write(text);
  }
  return {
    write(line: string) {
      const size = Buffer.byteLength(line);
      if (bytes + size > PIPE_BUF) flush();
      pending.push(line);
      bytes += size;
      if (line.startsWith('{"level":"error"') || line.startsWith('{"level":"fatal"')) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
