// Preloaded into the soak's server process (NODE_OPTIONS="--expose-gc --require soak/gc-probe.cjs",
// unless SOAK_FORCE_GC=0): every few seconds a full garbage collection, then one line saying what
// the JavaScript heap still holds. Without it V8 grows its heap lazily under load and RSS climbs
// for minutes with nothing leaked; with it RSS is a steady signal and a JS leak shows on its own.
// See docs/decisions/0906-soak-memory-forced-gc.md.
const every = Number(process.env.SOAK_GC_EVERY_MS || 5000);

setInterval(() => {
  if (typeof globalThis.gc !== "function") return;
  globalThis.gc();
  const usage = process.memoryUsage();
  process.stdout.write(
    `[soak-gc] ${JSON.stringify({
      pid: process.pid,
      heapMb: +(usage.heapUsed / 2 ** 20).toFixed(2),
      externalMb: +(usage.external / 2 ** 20).toFixed(2),
    })}\n`,
  );
}, every).unref();
