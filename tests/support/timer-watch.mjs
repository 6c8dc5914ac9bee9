// Loaded with `node --import` into a server process under test: every setInterval the app's build
// (build/index.js) starts is written to TIMER_WATCH_FILE, one JSON line each with its caller, so a
// test can tell whether a process runs periodic work of its own.
import { appendFileSync } from "node:fs";

const file = process.env.TIMER_WATCH_FILE;
const original = globalThis.setInterval;
if (file) {
  globalThis.setInterval = function watchedSetInterval(callback, delay, ...args) {
    const stack = new Error().stack ?? "";
    const caller = stack
      .split("\n")
      .slice(2)
      .find((line) => line.includes("/build/index.js"));
    if (caller)
      appendFileSync(
        file,
        `${JSON.stringify({ pid: process.pid, delay, caller: caller.trim() })}\n`,
      );
    return original.call(this, callback, delay, ...args);
  };
}
