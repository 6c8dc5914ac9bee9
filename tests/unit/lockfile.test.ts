// Reproducible installs (docs/decisions/3001): CI and the image install with `npm ci`, which
// refuses a lockfile out of step with package.json. This runs npm's own check on a copy of the two
// files, so a lockfile that would be refused fails here, before CI or a deploy finds it.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const folders: string[] = [];

/** `npm ci --dry-run` in a folder holding only these package.json and lockfile texts. */
async function ciDryRun(packageJson: string, lockfile: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bidyard-lockfile-"));
  folders.push(dir);
  writeFileSync(path.join(dir, "package.json"), packageJson);
  writeFileSync(path.join(dir, "package-lock.json"), lockfile);
  try {
    await run("npm", ["ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"], {
      cwd: dir,
      timeout: 120_000,
    });
    return { ok: true, output: "" };
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${stdout}${stderr}` };
  }
}

afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe("the lockfile", () => {
  const packageJson = readFileSync("package.json", "utf8");
  const lockfile = readFileSync("package-lock.json", "utf8");

  it("is accepted by `npm ci` as committed", async () => {
    const result = await ciDryRun(packageJson, lockfile);
    expect(result.ok, result.output).toBe(true);
  }, 150_000);

  it("lists the other platforms' optional packages (rollup's, esbuild's), not only Linux's", () => {
    const packages = Object.keys(JSON.parse(lockfile).packages as Record<string, unknown>);
    for (const name of ["@rollup/rollup-darwin-arm64", "@rollup/rollup-win32-x64-msvc"]) {
      expect(
        packages.some((key) => key.endsWith(`node_modules/${name}`)),
        name,
      ).toBe(true);
    }
  });

  it("the check refuses a lockfile that package.json has moved past", async () => {
    const pkg = JSON.parse(packageJson) as { dependencies: Record<string, string> };
    pkg.dependencies["left-pad"] = "1.3.0";
    const result = await ciDryRun(JSON.stringify(pkg, null, 2), lockfile);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/in sync|Missing: left-pad/);
  }, 150_000);

  it("CI and the image install with npm ci", () => {
    expect(readFileSync(".ci/run", "utf8")).toMatch(/^npm ci\b/m);
    const dockerfile = readFileSync("Dockerfile", "utf8");
    expect(dockerfile).toMatch(/^RUN npm ci --include=dev/m);
    expect(dockerfile).not.toMatch(/^RUN npm install/m);
    // the patches are applied by the install (postinstall), so they are copied in before it
    expect(dockerfile.indexOf("COPY patches")).toBeLessThan(dockerfile.indexOf("RUN npm ci"));
  });
});
