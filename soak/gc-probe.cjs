// Preloaded into the soak's server processes (NODE_OPTIONS="--expose-gc --require soak/gc-probe.cjs",
// unless SOAK_FORCE_GC=0): every few seconds a full garbage collection, then one line saying what
// the JavaScript heap still holds. Without it V8 grows its heap lazily under load and RSS climbs
// for minutes with nothing leaked; with it RSS is a steady signal and a JS leak shows on its own.
// See docs/decisions/0906-soak-memory-forced-gc.md.
//
// Each line also says where the process's resident memory is (docs/decisions/3005): V8's heap
// (used and committed), buffers outside it, and the kernel's split of RSS into anonymous memory
// (malloc arenas, V8, native libraries' allocations) and file-backed pages (code, mapped files).
// SOAK_HEAP_SNAPSHOTS="DIR:60,300" writes a heap snapshot of each process at those seconds.
const fs = require("node:fs");
const path = require("node:path");
const v8 = require("node:v8");

const every = Number(process.env.SOAK_GC_EVERY_MS || 5000);
const started = Date.now();

function smaps() {
  try {
    const text = fs.readFileSync("/proc/self/smaps_rollup", "utf8");
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? 0);
    return {
      anonMb: +(kb("Anonymous") / 1024).toFixed(1),
      fileMb: +((kb("Rss") - kb("Anonymous")) / 1024).toFixed(1),
      // this process's fair share: a page mapped by n processes counts 1/n here
      pssMb: +(kb("Pss") / 1024).toFixed(1),
    };
  } catch {
    return {};
  }
}

setInterval(() => {
  if (typeof globalThis.gc !== "function") return;
  globalThis.gc();
  const usage = process.memoryUsage();
  const mb = (bytes) => +(bytes / 2 ** 20).toFixed(2);
  process.stdout.write(
    `[soak-gc] ${JSON.stringify({
      pid: process.pid,
      heapMb: mb(usage.heapUsed),
      heapTotalMb: mb(usage.heapTotal),
      externalMb: mb(usage.external),
      arrayBuffersMb: mb(usage.arrayBuffers),
      rssMb: mb(usage.rss),
      ...smaps(),
    })}\n`,
  );
}, every).unref();

const [dir, times] = (process.env.SOAK_HEAP_SNAPSHOTS || "").split(":");
if (dir && times) {
  for (const seconds of times.split(",").map(Number)) {
    setTimeout(
      () => {
        const file = path.join(dir, `heap-${process.pid}-${seconds}s.heapsnapshot`);
        v8.writeHeapSnapshot(file);
        process.stdout.write(`[soak-gc] ${JSON.stringify({ pid: process.pid, snapshot: file })}\n`);
      },
      seconds * 1000 - (Date.now() - started),
    ).unref();
  }
}
