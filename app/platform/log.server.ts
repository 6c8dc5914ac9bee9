// The process's logger (docs/decisions/3002). The server makes it (server/log.ts: pino, JSON
// lines, pretty under `npm run dev`) and keeps it on globalThis, where this finds it: the build is
// its own bundle and would otherwise get a second instance. Without the server (tests, scripts)
// the lines go to the console as before.
type Fields = Record<string, unknown>;
type Write = (fields: Fields, message: string) => void;
export type Log = { info: Write; warn: Write; error: Write; debug: Write };

const LOG_KEY = Symbol.for("bidyard.log");

const consoleLog: Log = {
  info: (fields, message) => console.log(message, fields),
  warn: (fields, message) => console.warn(message, fields),
  error: (fields, message) =>
    fields.err ? console.error(message, fields.err) : console.error(message, fields),
  debug: () => undefined,
};

export function log(): Log {
  return ((globalThis as Record<symbol, unknown>)[LOG_KEY] as Log | undefined) ?? consoleLog;
}
