// The security suite (tests/support/security-app.ts), dependencies: `npm audit` cannot reach an
// advisory service here (docs/decisions/0901-dependency-audit.md): production dependencies are
// pinned exactly and locked with integrity hashes instead. Reads files only: no server.
import fs from "node:fs";
import { describe, expect, it } from "vitest";

describe("dependencies", () => {
  it("production dependencies are pinned exactly and locked with integrity hashes", () => {
    const manifest = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
      dependencies: Record<string, string>;
    };
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")) as {
      packages: Record<string, { version?: string; integrity?: string; dev?: boolean }>;
    };
    const names = Object.keys(manifest.dependencies);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      expect(manifest.dependencies[name], name).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
      const locked = lock.packages[`node_modules/${name}`];
      expect(locked?.version, name).toBe(manifest.dependencies[name]);
    }
    // Everything production installs (direct or not) comes from the lock with a sha512 hash.
    const production = Object.entries(lock.packages).filter(
      ([key, entry]) => key.startsWith("node_modules/") && !entry.dev,
    );
    expect(production.length).toBeGreaterThan(names.length);
    for (const [key, entry] of production) {
      if (!entry.version) continue; // a link
      expect(entry.integrity, key).toMatch(/^sha512-/);
    }
  });
});
