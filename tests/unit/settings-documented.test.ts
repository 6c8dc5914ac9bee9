// Every environment variable the code reads is in the README's settings table
// (docs/decisions/3007): an operator should never have to read the code to run the product.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** The code that runs the product: the app, the server, the database scripts and the tools. */
const ROOTS = ["app", "db", "scripts", "server"];

/** The operating system's own, passed through to child processes: not the product's settings. */
const PASSED_THROUGH = new Set(["PATH", "HOME"]);

function sourceFiles() {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|tsx|mjs|js|cjs)$/.test(name)) files.push(full);
    }
  };
  for (const root of ROOTS) walk(root);
  return files;
}

/** Names read as process.env.X or process.env["X"], a setting helper's "X", or env schema keys. */
export function readNames(files: string[]) {
  const names = new Map<string, string>();
  const note = (name: string, file: string) => {
    if (!names.has(name)) names.set(name, file);
  };
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[["']([A-Z][A-Z0-9_]*)["']\])/g,
    ))
      note(m[1] ?? m[2], file);
    // server/memory.ts and server/log.ts read a `source` that defaults to process.env
    for (const m of text.matchAll(/\bsource\.([A-Z][A-Z0-9_]*)/g)) note(m[1], file);
    for (const m of text.matchAll(/numberSetting\("([A-Z][A-Z0-9_]*)"/g)) note(m[1], file);
  }
  // the validated settings (app/platform/env.server.ts): every key of its schema
  const env = readFileSync("app/platform/env.server.ts", "utf8");
  const schema = env.slice(env.indexOf("const schema = z.object({"), env.indexOf("});"));
  for (const m of schema.matchAll(/^\s{2}([A-Z][A-Z0-9_]*):/gm))
    note(m[1], "app/platform/env.server.ts");
  return names;
}

/** The names in the first column of the README's Settings section's tables. */
function documentedNames() {
  const readme = readFileSync("README.md", "utf8");
  const start = readme.indexOf("\n## Settings");
  const end = readme.indexOf("\n## ", start + 1);
  const names = new Set<string>();
  for (const line of readme.slice(start, end).split("\n")) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? "";
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]);
  }
  return names;
}

describe("settings", () => {
  it("every environment variable the code reads is in the README's settings table", () => {
    const read = readNames(sourceFiles());
    expect(read.size).toBeGreaterThan(30);
    const documented = documentedNames();
    const missing = [...read]
      .filter(([name]) => !documented.has(name) && !PASSED_THROUGH.has(name))
      .map(([name, file]) => `${name} (read in ${file})`);
    expect(missing, "add a row to the README's Settings table").toEqual([]);
  });

  it("the table names nothing the code no longer reads", () => {
    const read = readNames(sourceFiles());
    const stale = [...documentedNames()].filter((name) => !read.has(name));
    expect(stale).toEqual([]);
  });

  it("finds names in each way the code reads them", () => {
    const names = readNames([
      "server/primary.ts",
      "server/timeouts.ts",
      "server/memory.ts",
      "server/log.ts",
    ]);
    for (const name of [
      "WEB_CONCURRENCY",
      "HTTP_BODY_TIMEOUT_MS",
      "MACHINE_MEMORY_MB",
      "LOG_FORMAT",
    ])
      expect(names.has(name), name).toBe(true);
  });
});
