// The ablation table (docs/decisions/3401): what each piece of the request path costs on each page,
// in ms of the server's CPU per request. One reference server, one of ours whole and one of ours
// per piece taken out, all started once; every round measures every page on each of them in an
// order rotated round by round, so the machine's load falls on all alike. A piece's price is ours
// whole minus ours without it, paired round by round (the median of the pairs). A piece of
// server/ is switched off on its server (BIDYARD_BENCH_ABLATION=1 and BIDYARD_ABLATE=piece, read
// by server/ablation.ts only then); a piece of app/ is taken out of a variant of the app the bench
// builds (bench/variants.ts, docs/decisions/3621), which that server serves. `headers` is both.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { startApp, waitFor200, type AppProcess } from "../tests/support/app-process";
import { freePort } from "../tests/support/cluster";
import { SERVER_PIECES } from "../server/ablation";
import { APP_PIECE_EDITS, buildVariant, type AppPiece } from "./variants";
import { cpuDuring } from "./cpu";
import { load } from "./load";
import { startReference } from "./reference";

export type Piece = (typeof SERVER_PIECES)[number] | AppPiece;

/** every piece, in the table's order */
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

const inServer = (piece: string) => (SERVER_PIECES as readonly string[]).includes(piece);
const inApp = (piece: string): piece is AppPiece => piece in APP_PIECE_EDITS;

/** the variant name of the reference that clears its abort timer */
export const CLEARED = "reference-cleared";

/** the edge's pieces, met by every request */
const EDGE: Piece[] = [
  "log",
  "metrics",
  "headers",
  "cross-origin",
  "body-bounds",
  "page-slots",
  "compression",
];

export type AblationPage = {
  label: string;
  ours: string;
  reference: string;
  headers?: Record<string, string>;
  /** the pieces this page has to switch off (beside the edge's) */
  pieces: Piece[];
  /** the status every answer must have */
  status: number;
};

export type AblationResult = {
  pages: AblationPage[];
  /** node[variant][page] = Node CPU ms per request, one per round; pg likewise */
  node: Record<string, Record<string, number[]>>;
  pg: Record<string, Record<string, number[]>>;
  loads: string[];
  rounds: number;
  seconds: number;
  /** bytes[page] = the size of one answer of each */
  bytes: Record<string, { reference: number; ours: number }>;
  pieces: readonly Piece[];
};

/** the median of the finite values (a run that finished no request in its seconds is NaN) */
export const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function ablationTable(options: {
  env: Record<string, string>;
  pages: AblationPage[];
  pgPid: () => number | null | undefined;
  rounds: number;
  seconds: number;
  warm: number;
  track: (label: string, app: AppProcess) => () => Promise<unknown>;
  log: (line: string) => void;
  /** the pieces to switch off one at a time (all of them unless told) */
  pieces?: readonly Piece[];
  /** also a reference that clears its abort timer when a render ends, as ours does (3412) */
  clearedReference?: boolean;
}): Promise<AblationResult> {
  const { env, pages, pgPid, rounds, seconds, warm, track, log } = options;
  const pieces = options.pieces ?? PIECES;
  const unknown = pieces.filter((piece) => !PIECES.includes(piece));
  if (unknown.length) throw new Error(`no ablation piece named ${unknown.join(", ")}`);
  const servers = new Map<string, AppProcess>();
  const stops: Array<() => Promise<unknown>> = [];
  try {
    const refPort = await freePort();
    const reference = startReference(
      { DATABASE_URL: env.DATABASE_URL, SESSION_SECRET: env.SESSION_SECRET },
      refPort,
    );
    stops.push(track("the reference app (ablation)", reference));
    servers.set("reference", reference);
    if (options.clearedReference) {
      const cleared = startReference(
        {
          DATABASE_URL: env.DATABASE_URL,
          SESSION_SECRET: env.SESSION_SECRET,
          REFERENCE_CLEARS_ABORT_TIMER: "1",
        },
        await freePort(),
      );
      stops.push(track("the reference app, abort timer cleared (ablation)", cleared));
      servers.set(CLEARED, cleared);
    }
    // the app's variants built first, one after another (once per run, kept while their sources
    // are the same), before any of ours starts
    const builds = new Map<string, string>();
    for (const piece of pieces)
      if (inApp(piece))
        builds.set(piece, await buildVariant(`no-${piece}`, APP_PIECE_EDITS[piece], log));
    for (const variant of ["whole", ...pieces]) {
      const port = await freePort();
      const app = startApp(
        {
          ...env,
          APP_URL: `http://localhost:${port}`,
          BIDYARD_BENCH_ABLATION: "1",
          BIDYARD_ABLATE: inServer(variant) ? variant : "",
        },
        port,
        [],
        builds.get(variant),
      );
      stops.push(track(`ours, ${variant === "whole" ? "whole" : `no ${variant}`}`, app));
      servers.set(variant, app);
    }
    for (const server of servers.values())
      await waitFor200(`${server.url}/healthz`, server, 240_000);

    const names = [...servers.keys()];
    // what each page weighs, ours and the reference's (uncompressed HTML or body)
    const bytes: AblationResult["bytes"] = {};
    for (const page of pages) {
      // BENCH_ABLATION_DUMP=DIR keeps both answers, to read side by side
      const size = async (server: AppProcess, path: string, who: string) => {
        const body = await (await fetch(`${server.url}${path}`, { headers: page.headers })).text();
        const dump = process.env.BENCH_ABLATION_DUMP;
        if (dump) {
          mkdirSync(dump, { recursive: true });
          writeFileSync(`${dump}/${page.label.replace(/[^a-z0-9]+/gi, "-")}.${who}.html`, body);
        }
        return Buffer.byteLength(body);
      };
      bytes[page.label] = {
        reference: await size(servers.get("reference")!, page.reference, "reference"),
        ours: await size(servers.get("whole")!, page.ours, "ours"),
      };
    }
    const node: AblationResult["node"] = {};
    const pg: AblationResult["pg"] = {};
    const loads: string[] = [];
    for (let round = 0; round < rounds; round += 1) {
      loads.push(os.loadavg()[0].toFixed(1));
      const order = names.map((_, i) => names[(i + round * 5) % names.length]);
      for (const page of pages) {
        const wanted = new Set<string>(["reference", CLEARED, "whole", ...EDGE, ...page.pieces]);
        for (const name of order.filter((n) => wanted.has(n))) {
          const server = servers.get(name)!;
          const url = `${server.url}${name === "reference" || name === CLEARED ? page.reference : page.ours}`;
          const headers = page.headers;
          await load({ url, connections: 20, seconds: warm, headers });
          const { result, used } = await cpuDuring({ node: server.proc.pid, pg: pgPid() }, () =>
            load({ url, connections: 20, seconds, headers }),
          );
          const expected = page.status === 200 ? result.requests : 0;
          if (result.serverErrors || result.errors || result.ok !== expected)
            throw new Error(`${name} ${page.label}: ${result.ok} 2xx of ${result.requests}`);
          // none finished in the seconds given (a page slower than that under the machine's load):
          // the round is left out of this variant's median rather than priced at infinity
          const per = (ms: number) => (result.requests ? ms / result.requests : Number.NaN);
          ((node[name] ??= {})[page.label] ??= []).push(per(used.node));
          ((pg[name] ??= {})[page.label] ??= []).push(per(used.pg));
        }
        log(
          `ablation round ${round + 1}/${rounds}: ${page.label} done (load ${os.loadavg()[0].toFixed(1)})`,
        );
      }
    }
    loads.push(os.loadavg()[0].toFixed(1));
    return { pages, node, pg, loads, rounds, seconds, bytes, pieces };
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
  }
}

/** The table as Markdown: per page, the reference, ours whole, the ratio, each piece's price. */
export function ablationMarkdown(r: AblationResult) {
  const f = (n: number) => n.toFixed(2);
  const sign = (n: number) => `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(2)}`;
  const kb = (n: number | undefined) => (n === undefined ? "–" : `${(n / 1024).toFixed(1)} KB`);
  const cleared = Boolean(r.node[CLEARED]);
  // with no piece switched off (the goal rows' long rounds) the table has no price columns
  const head = r.pieces.map((piece) => ` ${piece} |`).join("");
  const lines = [
    `Node CPU ms per request (PostgreSQL's after the +), median of ${r.rounds} interleaved rounds, ` +
      `${r.seconds} s per page and server; 1-minute load average at each round's start and the end: ` +
      `${r.loads.join(", ")}.` +
      (r.pieces.length
        ? ` A piece's price: ours whole minus ours without it, paired round by round ` +
          `(median; a negative price is noise).`
        : ""),
    "",
    `| page | bytes, reference / ours | reference | ours whole | ratio (Node) | ratio (Node + PostgreSQL) |${cleared ? " reference, timer cleared | ratio to it (Node + PostgreSQL) |" : ""}${head}`,
    `|---|---|---|---|---|---|${cleared ? "---|---|" : ""}${r.pieces.map(() => "---|").join("")}`,
  ];
  const clearedCells = (label: string) => {
    const node = median(r.node[CLEARED][label]);
    const pg = median(r.pg[CLEARED][label]);
    const ours = median(r.node.whole[label]) + median(r.pg.whole[label]);
    return ` ${f(node)} + ${f(pg)} | ${(ours / (node + pg)).toFixed(2)} × |`;
  };
  for (const page of r.pages) {
    const ref = r.node.reference[page.label];
    const whole = r.node.whole[page.label];
    const refPg = r.pg.reference[page.label];
    const wholePg = r.pg.whole[page.label];
    const cells = r.pieces.map((piece) => {
      const xs = r.node[piece]?.[page.label];
      if (!xs) return "";
      const price = median(xs.map((x, i) => whole[i] - x));
      return Number.isFinite(price) ? sign(price) : "–";
    });
    lines.push(
      `| ${page.label} | ${kb(r.bytes[page.label]?.reference)} / ${kb(r.bytes[page.label]?.ours)} | ` +
        `${f(median(ref))} + ${f(median(refPg))} | ${f(median(whole))} + ` +
        `${f(median(wholePg))} | ${(median(whole) / median(ref)).toFixed(2)} × | ` +
        `${((median(whole) + median(wholePg)) / (median(ref) + median(refPg))).toFixed(2)} × |` +
        (cleared ? clearedCells(page.label) : "") +
        cells.map((cell) => ` ${cell} |`).join(""),
    );
  }
  return lines.join("\n");
}
