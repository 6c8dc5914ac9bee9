// The bench's ablation switches for the pieces that live in server/ (docs/decisions/3401, 3621).
// BIDYARD_ABLATE (a comma-separated list of SERVER_PIECES) is read only when
// BIDYARD_BENCH_ABLATION=1 is set too, which only bench/ablation.ts sets, and never on Fly
// (FLY_APP_NAME): a production server refuses to start with the bench's variable rather than run
// with a piece off. The pieces that live in app/ are not switched here but built: the bench builds
// a variant of the app without them (bench/variants.ts).

/** the pieces of server/worker.ts's request path the bench can switch off */
export const SERVER_PIECES = [
  "log",
  "metrics",
  "headers",
  "cross-origin",
  "body-bounds",
  "page-slots",
  "compression",
] as const;

export function installAblation(
  env: Record<string, string | undefined> = process.env,
): ReadonlySet<string> {
  if (env.BIDYARD_BENCH_ABLATION !== "1") return new Set();
  if (env.FLY_APP_NAME) throw new Error("BIDYARD_BENCH_ABLATION is the bench's alone, not Fly's");
  const off = new Set(
    (env.BIDYARD_ABLATE ?? "")
      .split(",")
      .map((piece) => piece.trim())
      .filter(Boolean),
  );
  const unknown = [...off].filter((piece) => !(SERVER_PIECES as readonly string[]).includes(piece));
  if (unknown.length) throw new Error(`BIDYARD_ABLATE: no piece named ${unknown.join(", ")}`);
  return off;
}
