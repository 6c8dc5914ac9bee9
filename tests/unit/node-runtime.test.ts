// One Node for CI and the image, and no runtime warning from the local issuer's OpenID provider
// (docs/decisions/3101-node-24.md).
import { execFile } from "node:child_process";
import fs from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
const major = Number(process.versions.node.split(".")[0]);

describe("the Node runtime", () => {
  it("package.json engines, the Dockerfile and this runtime name the same Node", () => {
    const [, min, below] = /^>=(\d+) <(\d+)$/.exec(pkg.engines.node) ?? [];
    expect(Number(below) - Number(min), "engines names one major").toBe(1);
    expect(major).toBe(Number(min));
    const dockerfile = fs.readFileSync("Dockerfile", "utf8");
    // the image names an exact version, and the tests run on that very one (.ci/run)
    const image = /^ARG NODE_VERSION=(\d+\.\d+\.\d+)$/m.exec(dockerfile)?.[1];
    expect(image?.split(".")[0]).toBe(min);
    if (process.env.CI) expect(process.versions.node).toBe(image);
    // CI refuses a runtime outside engines, or other than the image's, before installing anything.
    const ci = fs.readFileSync(".ci/run", "utf8");
    expect(ci).toContain("engines.node");
    expect(ci).toContain("scripts/node-lts.sh");
  });

  it("loading the local issuer's OpenID provider warns about nothing on this runtime", async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      "--input-type=module",
      "-e",
      "await import('oidc-provider'); console.log('loaded')",
    ]);
    expect(stdout.trim()).toBe("loaded");
    expect(stderr).not.toMatch(/Unsupported runtime/);
    expect(stderr).toBe("");
  });
});
