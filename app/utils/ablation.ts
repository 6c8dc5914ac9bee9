// The bench's ablation switches (docs/decisions/3401): which pieces of the request path are off for
// one bench server. Set on the server only, by server/ablation.ts, and only when the bench asked
// for it; everywhere else (production, tests, the browser) nothing is ever off.
export const ABLATION_KEY = Symbol.for("bidyard.benchAblation");

export type Piece =
  | "log"
  | "metrics"
  | "headers"
  | "cross-origin"
  | "body-bounds"
  | "page-slots"
  | "session"
  | "root-reads"
  | "filter-options"
  | "cards"
  | "compression";

export const PIECES: readonly Piece[] = [
  "log",
  "metrics",
  "headers",
  "cross-origin",
  "body-bounds",
  "page-slots",
  "session",
  "root-reads",
  "filter-options",
  "cards",
  "compression",
];

/** true only on a bench server started with this piece switched off */
export function ablated(piece: Piece): boolean {
  const off = (globalThis as { [ABLATION_KEY]?: ReadonlySet<string> })[ABLATION_KEY];
  return off !== undefined && off.has(piece);
}

const kept = new Map<string, Promise<unknown>>();
/** with `piece` off, the first answer of `read` stands for every later one (its cost out of the
 * request); otherwise `read` runs as always */
export function readUnlessAblated<T>(
  piece: Piece,
  key: string,
  read: () => Promise<T>,
): Promise<T> {
  if (!ablated(piece)) return read();
  let value = kept.get(key) as Promise<T> | undefined;
  if (!value) kept.set(key, (value = read()));
  return value;
}
