// The register of promises (docs/promises.md) against the sentences the Terms and the Privacy
// Policy render as promises (app/services/legal/promises.ts) and the tests it names
// (docs/decisions/3522).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROMISES, type PromiseId } from "~/services/legal/promises";

const ROOT = path.resolve(import.meta.dirname, "../..");
const REGISTER = "docs/promises.md";
const PAGES = { terms: "app/routes/terms.tsx", privacy: "app/routes/privacy.tsx" } as const;

/**
 * Promises whose test is still being written may say "pending: <what>" while they are listed
 * here; none is today. Fill the test in docs/promises.md, then take the promise off here.
 */
const PENDING_ALLOWED: Partial<Record<PromiseId, string>> = {};

type Entry = { id: string; quote: string[]; tests: string[] };

/** The register's entries: `### id`, a `> sentence` quote, `- test: …` lines. */
function readRegister(text: string): Entry[] {
  const entries: Entry[] = [];
  let current: Entry | null = null;
  for (const line of text.split("\n")) {
    const heading = /^###\s+(\S+)\s*$/.exec(line);
    if (heading) {
      current = { id: heading[1], quote: [], tests: [] };
      entries.push(current);
      continue;
    }
    if (/^#{1,2}\s/.test(line)) current = null;
    if (!current) continue;
    if (line.startsWith("> ")) current.quote.push(line.slice(2).trim());
    const test = /^- test:\s*(.+?)\s*$/.exec(line);
    if (test) current.tests.push(test[1]);
  }
  return entries;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `file` has a test (it/test, any modifier) titled exactly `title`. */
function hasTest(source: string, title: string) {
  const quoted = ['"', "'", "`"].map(
    (quote) =>
      `\\b(?:it|test)(?:\\.\\w+)?\\(\\s*${escape(quote)}${escape(
        quote === '"' ? title.replace(/"/g, '\\"') : title,
      )}${escape(quote)}`,
  );
  return quoted.some((pattern) => new RegExp(pattern).test(source));
}

/** Why a register's test line does not name a real test, or null when it does. */
function problemWith(id: string, line: string): string | null {
  if (line.startsWith("pending:")) {
    if (!(id in PENDING_ALLOWED)) return `${id}: "pending" is not allowed for this promise`;
    return line.slice("pending:".length).trim() ? null : `${id}: say what is pending`;
  }
  const [file, title, ...rest] = line.split(" › ");
  if (!file || !title || rest.length > 0) return `${id}: write "<file> › <test title>": ${line}`;
  const full = path.join(ROOT, file);
  if (!/^tests\/(unit|integration|e2e)\//.test(file) || !fs.existsSync(full)) {
    return `${id}: no test file ${file}`;
  }
  if (!hasTest(fs.readFileSync(full, "utf8"), title)) return `${id}: no test "${title}" in ${file}`;
  return null;
}

const register = readRegister(fs.readFileSync(path.join(ROOT, REGISTER), "utf8"));
const ids = Object.keys(PROMISES) as PromiseId[];

describe("the register of promises", () => {
  it("has one entry for each promise the pages make, and none for a promise they do not", () => {
    const listed = register.map((entry) => entry.id);
    expect(ids.filter((id) => !listed.includes(id))).toEqual([]);
    expect(listed.filter((id) => !(id in PROMISES))).toEqual([]);
    expect(listed.filter((id, index) => listed.indexOf(id) !== index)).toEqual([]);
  });

  it("quotes each promise as the page words it", () => {
    for (const entry of register) {
      if (!(entry.id in PROMISES)) continue;
      expect(entry.quote.join(" "), entry.id).toBe(PROMISES[entry.id as PromiseId].text);
    }
  });

  it("names, for each promise, tests that exist in the files it names", () => {
    const problems: string[] = [];
    for (const entry of register) {
      if (entry.tests.length === 0) problems.push(`${entry.id}: names no test`);
      if (entry.tests.every((line) => line.startsWith("pending:"))) {
        if (entry.tests.length > 0) problems.push(`${entry.id}: names only pending tests`);
      }
      for (const line of entry.tests) {
        const problem = problemWith(entry.id, line);
        if (problem) problems.push(problem);
      }
    }
    expect(problems).toEqual([]);
  });

  it("keeps the pending allow-list to promises still waiting for their test", () => {
    const stale = Object.keys(PENDING_ALLOWED).filter((id) => {
      const entry = register.find((e) => e.id === id);
      return !entry?.tests.some((line) => line.startsWith("pending:"));
    });
    expect(stale, "take these off PENDING_ALLOWED").toEqual([]);
  });

  it("each page renders each of its promises once, from the list, and no other", () => {
    for (const [page, file] of Object.entries(PAGES)) {
      const source = fs.readFileSync(path.join(ROOT, file), "utf8");
      const used = [
        ...source.matchAll(/<Promised\s+id="([^"]+)"/g),
        ...source.matchAll(/promiseText\("([^"]+)"\)/g),
      ].map((match) => match[1]);
      const own = ids.filter((id) => PROMISES[id].page === page);
      expect([...used].sort(), file).toEqual([...own].sort());
    }
  });
});

describe("the register's checks themselves", () => {
  it("refuse a missing test, a missing file, a bad line and a pending promise off the list", () => {
    expect(problemWith("terms.soft-close", "pending: later")).toMatch(/not allowed/);
    expect(problemWith("terms.soft-close", "tests/unit/nope.test.ts › x")).toMatch(/no test file/);
    expect(
      problemWith("terms.soft-close", "tests/unit/promises-register.test.ts › not a test here"),
    ).toMatch(/no test "not a test here"/);
    expect(problemWith("terms.soft-close", "just words")).toMatch(/write/);
    expect(problemWith("terms.buying-power", "pending: finding 3")).toMatch(/not allowed/);
    expect(
      problemWith(
        "terms.soft-close",
        "tests/unit/promises-register.test.ts › quotes each promise as the page words it",
      ),
    ).toBeNull();
  });

  it("read an entry without tests as one that names none", () => {
    const [entry] = readRegister("### terms.soft-close\n\n> A bid.\n\nNo tests yet.\n");
    expect(entry).toEqual({ id: "terms.soft-close", quote: ["A bid."], tests: [] });
  });
});
