// The bench's ablation switches (docs/decisions/3401). BIDYARD_ABLATE (a comma-separated list of
// pieces, app/utils/ablation.ts) is read only when BIDYARD_BENCH_ABLATION=1 is set too, which only
// bench/ablation.ts sets, and never on Fly (FLY_APP_NAME): a production server refuses to start
// with the bench's variable rather than run with a piece off.
import { ABLATION_KEY, PIECES } from "../app/utils/ablation.ts";

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
  const unknown = [...off].filter((piece) => !(PIECES as readonly string[]).includes(piece));
  if (unknown.length) throw new Error(`BIDYARD_ABLATE: no piece named ${unknown.join(", ")}`);
  (globalThis as { [ABLATION_KEY]?: ReadonlySet<string> })[ABLATION_KEY] = off;
  return off;
}
