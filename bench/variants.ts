// Variants of the app built by the bench (docs/decisions/3621): a copy of the working tree's
// sources with a few edits applied, built with `npm run build` in a folder of its own, and kept
// under .cache/variants/<name>-<hash>/build (the hash is of the edited sources and the lockfile,
// so a variant is built once and again only when its sources change). The app itself carries no
// switch for the bench: what the bench wants to measure without, it builds without.
// An edit that no longer applies (its text not found exactly once) fails the run, naming it.
// Usage: tsx bench/variants.ts NAME [--keep] builds the variant NAME of VARIANTS and prints its
// build folder; with --keep it is also copied to .cache/ab/NAME/build for bench/ab-builds.ts.
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";

/** one edit of one file: `from` (text, or a pattern) must be found exactly once */
export type Edit =
  { file: string; from: string | RegExp; to: string } | { file: string; append: string };

/** what `npm run build` reads: the app, the server, the build scripts and their configuration */
const SOURCES = [
  "app/",
  "server/",
  "scripts/",
  "public/",
  "package.json",
  "package-lock.json",
  "remix.config.js",
  "remix.env.d.ts",
  "postcss.config.js",
  "tsconfig.json",
];

const CACHE = path.resolve(".cache/variants");

/** A read whose answer the page needs, read once per process (its cost out of the request). */
const KEPT_ONCE = `
// added by the bench (bench/variants.ts): the first answer of a read stands for every later one
const benchKept = new Map<string, Promise<unknown>>();
function benchOnce<T>(key: string, read: () => Promise<T>): Promise<T> {
  if (!benchKept.has(key)) benchKept.set(key, read());
  return benchKept.get(key) as Promise<T>;
}
`;

/**
 * The app's pieces the ablation table (docs/decisions/3401) prices, each as the edits that take it
 * out of a copy of the app. Written against the app as it is: when the app changes under them,
 * the edit stops applying and the bench says which (tests/unit/bench-ablation.test.ts checks them
 * all without building).
 */
export const APP_PIECE_EDITS = {
  // the page's CSP and security headers (the edge's own are switched off in server/ablation.ts)
  headers: [
    {
      file: "app/entry.server.tsx",
      from: `  responseHeaders.set("Content-Security-Policy", pageContentSecurityPolicy(remixContext, nonce));\n  applySecurityHeaders(responseHeaders);\n`,
      to: "",
    },
  ],
  // the root loader's session read: every page as signed out
  session: [
    {
      file: "app/root.tsx",
      from: "const session = await readSession(request);",
      to: "const session = null as Awaited<ReturnType<typeof readSession>>;",
    },
  ],
  // the root loader's toast cookie (none) and settings (the first answer kept)
  "root-reads": [
    {
      file: "app/root.tsx",
      from: "readToast(request)",
      to: "{ toast: null, headers: new Headers() }",
    },
    { file: "app/root.tsx", from: "getSettings()", to: `benchOnce("settings", getSettings)` },
    { file: "app/root.tsx", append: KEPT_ONCE },
  ],
  // the lists' filter counts and the community list's currency rates (the first answers kept)
  "filter-options": [
    {
      file: "app/routes/auctions._index/route.tsx",
      from: "auctionFilterOptions()",
      to: `benchOnce("auctions", auctionFilterOptions)`,
    },
    { file: "app/routes/auctions._index/route.tsx", append: KEPT_ONCE },
    {
      file: "app/routes/community-vehicles/route.tsx",
      from: "listingFilterOptions()",
      to: `benchOnce("listings", listingFilterOptions)`,
    },
    {
      file: "app/routes/community-vehicles/route.tsx",
      from: "ratesInForce()",
      to: `benchOnce("rates", ratesInForce)`,
    },
    { file: "app/routes/community-vehicles/route.tsx", append: KEPT_ONCE },
  ],
  // the lists' card components, each replaced by a bare title
  cards: [
    {
      file: "app/routes/auctions._index/route.tsx",
      from: /<LotCard\b[^>]*?\/>/,
      to: "<p key={lot.id}>{`${lot.year} ${lot.make} ${lot.model}`}</p>",
    },
    {
      file: "app/routes/community-vehicles/results.tsx",
      from: /<ListingCardView\b[^>]*?\/>/,
      to: "{listing.title}",
    },
  ],
} satisfies Record<string, Edit[]>;

export type AppPiece = keyof typeof APP_PIECE_EDITS;

/**
 * Other variants, measured with bench/ab-builds.ts: `remix-express` serves the app through
 * `@remix-run/express`'s adapter in place of server/remix.ts (docs/decisions/3622).
 */
export const VARIANTS: Record<string, Edit[]> = {
  ...Object.fromEntries(
    Object.entries(APP_PIECE_EDITS).map(([piece, edits]) => [`no-${piece}`, edits]),
  ),
  "remix-express": [
    {
      file: "server/worker.ts",
      from: `  const handleRequest = createRequestHandler(build, process.env.NODE_ENV);
  app.all("*", async (req, res, next) => {
    try {
      const response = await regions.answer(req, res, () =>
        handleRequest(toFetchRequest(req, res)),
      );
      if (response) await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  });
`,
      to: `  // the bench's variant (bench/variants.ts): Remix's own Express adapter
  const { createRequestHandler: expressHandler } = await import("@remix-run/express");
  app.all("*", expressHandler({ build, mode: process.env.NODE_ENV }));
`,
    },
    {
      file: "server/worker.ts",
      from: `import { sendResponse, toFetchRequest } from "./remix.ts";\n`,
      to: "",
    },
  ],
};

/** the files of the working tree `npm run build` reads (tracked or new, not ignored) */
function sourceFiles() {
  const listed = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...SOURCES],
    { encoding: "utf8" },
  );
  return [...new Set(listed.split("\0").filter(Boolean))].filter((file) => existsSync(file)).sort();
}

/** The edited files' texts, each edit applied in turn; throws naming an edit that does not apply. */
export function editedSources(name: string, edits: Edit[]) {
  const texts = new Map<string, string>();
  for (const edit of edits) {
    const text = texts.get(edit.file) ?? readFileSync(edit.file, "utf8");
    if ("append" in edit) {
      texts.set(edit.file, text + edit.append);
      continue;
    }
    const found =
      typeof edit.from === "string"
        ? text.split(edit.from).length - 1
        : (text.match(new RegExp(edit.from.source, `${edit.from.flags.replace("g", "")}g`)) ?? [])
            .length;
    if (found !== 1)
      throw new Error(
        `bench variant ${name}: ${edit.file}: ${String(edit.from).slice(0, 80)} found ${found} times, ` +
          `not once (the app changed under bench/variants.ts: update the edit)`,
      );
    texts.set(
      edit.file,
      text.replace(edit.from, () => edit.to),
    );
  }
  return texts;
}

const building = new Map<string, Promise<string>>();

/**
 * The variant `name` (the working tree with `edits` applied) built, and the path of its build
 * folder (what `startApp`'s buildDir takes). Built once per run and kept while its sources are
 * the same.
 */
export function buildVariant(name: string, edits: Edit[], log = console.log): Promise<string> {
  const edited = editedSources(name, edits);
  const files = sourceFiles();
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(edited.get(file) ?? readFileSync(file));
    hash.update("\0");
  }
  const key = `${name}-${hash.digest("hex").slice(0, 12)}`;
  const out = path.join(CACHE, key, "build");
  let done = building.get(key);
  if (done) return done;
  done = (async () => {
    if (existsSync(path.join(out, "index.js")) && existsSync(path.join(out, "server/index.js"))) {
      log(`bench variant ${name}: built before (${path.relative(".", out)})`);
      return out;
    }
    const started = Date.now();
    const dir = mkdtempSync(path.join(os.tmpdir(), `bidyard-variant-${name}-`));
    try {
      for (const file of files) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        const text = edited.get(file);
        if (text === undefined) cpSync(file, path.join(dir, file));
        else writeFileSync(path.join(dir, file), text);
      }
      symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
      await new Promise<void>((resolve, reject) => {
        let output = "";
        const build = spawn("npm", ["run", "build"], {
          cwd: dir,
          stdio: ["ignore", "pipe", "pipe"],
          env: { ...process.env, NODE_ENV: "production" },
        });
        build.stdout!.on("data", (chunk: Buffer) => (output += chunk));
        build.stderr!.on("data", (chunk: Buffer) => (output += chunk));
        build.on("error", reject);
        build.on("exit", (code) =>
          code === 0
            ? resolve()
            : reject(new Error(`bench variant ${name}: npm run build failed:\n${output}`)),
        );
      });
      rmSync(path.join(CACHE, key), { recursive: true, force: true });
      mkdirSync(path.join(CACHE, key), { recursive: true });
      // within one filesystem a rename; across two (a separate /tmp), a copy
      try {
        renameSync(path.join(dir, "build"), out);
      } catch {
        cpSync(path.join(dir, "build"), out, { recursive: true });
      }
      log(
        `bench variant ${name}: built in ${((Date.now() - started) / 1000).toFixed(0)} s ` +
          `(${path.relative(".", out)})`,
      );
      return out;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  building.set(key, done);
  done.catch(() => building.delete(key));
  return done;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name, flag] = process.argv.slice(2);
  const edits = VARIANTS[name];
  if (!edits) {
    console.error(
      `usage: tsx bench/variants.ts NAME [--keep]; NAME: ${Object.keys(VARIANTS).join(", ")}`,
    );
    process.exit(2);
  }
  buildVariant(name, edits).then(
    (out) => {
      console.log(out);
      if (flag === "--keep") {
        const to = path.resolve(".cache/ab", name, "build");
        rmSync(to, { recursive: true, force: true });
        cpSync(out, to, { recursive: true });
        console.log(`kept as ${to} (tsx bench/ab-builds.ts A ${name})`);
      }
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
