// sharp (libvips), loaded on the first picture rather than at start: its native library is about
// 18 MB of a server process's memory (docs/decisions/1905). Each picture is read, resized and
// stored once, so libvips's operation cache (50 MB by default, per process) only holds memory;
// and one libvips thread per operation keeps a worker's native buffers to one picture's worth
// (docs/decisions/3005). Requests still resize pictures side by side.
type Sharp = (typeof import("sharp"))["default"];

let loaded: Promise<Sharp> | null = null;

export function loadSharp(): Promise<Sharp> {
  loaded ??= import("sharp")
    .then(({ default: sharp }) => {
      sharp.cache(false);
      sharp.concurrency(1);
      return sharp;
    })
    .catch((error) => {
      loaded = null;
      throw error;
    });
  return loaded;
}
