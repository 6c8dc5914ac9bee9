// A newcomer on the wrong Node is refused at once, with the way to the right one
// (docs/decisions/3107-the-wrong-node-refused-at-once.md): `npm install` and `npm ci` by
// engine-strict (.npmrc), every npm script by scripts/check-node.cjs run as its pre<script>.
// .nvmrc names the image's Node.
import { execFile, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const checker = createRequire(import.meta.url)("../../scripts/check-node.cjs") as {
  satisfies: (version: string, range: string) => boolean;
  refusal: (version: string) => string | null;
  FIX: string;
};
const pkg = JSON.parse(readFileSync("package.json", "utf8"));
const image = /^ARG NODE_VERSION=(\d+\.\d+\.\d+)$/m.exec(readFileSync("Dockerfile", "utf8"))![1];
const folders: string[] = [];

afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The checker as npm runs it, on `node` (this runtime unless told), checking `as` if given. */
function check(as?: string, node = process.execPath) {
  const env = { ...process.env };
  delete env.BIDYARD_CHECK_NODE_AS;
  if (as) env.BIDYARD_CHECK_NODE_AS = as;
  const result = spawnSync(node, ["scripts/check-node.cjs"], { env, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the wrong Node", () => {
  it(".nvmrc names the Dockerfile's NODE_VERSION, inside engines.node", () => {
    expect(readFileSync(".nvmrc", "utf8").trim()).toBe(image);
    expect(checker.satisfies(image, pkg.engines.node)).toBe(true);
  });

  it("reads ranges as npm does for the forms engines may take", () => {
    const cases: [string, string, boolean][] = [
      ["24.21.0", ">=24 <25", true],
      ["24.0.0", ">=24 <25", true],
      ["25.0.0", ">=24 <25", false],
      ["20.20.2", ">=24 <25", false],
      ["22.18.0", ">=22.18.0", true],
      ["22.17.9", ">=22.18.0", false],
      ["24.3.1", "^24.1.0", true],
      ["25.1.0", "^24.1.0", false],
      ["24.21.0", "24.x", true],
      ["24.21.0", "=24.21.0", true],
      ["24.21.1", "24.21.0", false],
      ["20.1.0", "^20 || ^24", true],
    ];
    for (const [version, range, expected] of cases) {
      expect(checker.satisfies(version, range), `${version} in ${range}`).toBe(expected);
    }
  });

  it("refuses a Node outside engines.node in one line that names the fix", () => {
    const { code, stdout, stderr } = check("20.20.2");
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain(
      `BidYard needs Node 24 (the Dockerfile's ${image}); this is Node 20.20.2`,
    );
    expect(stderr).toContain(`Run: eval "$(bash scripts/node-lts.sh --env)"`);
    expect(stderr).toContain("nvm install");
    expect(check("25.0.0").code).toBe(1);
  });

  it("lets the Dockerfile's Node, and this one, through without a word", () => {
    expect(check(image)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(check()).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("is written for any old Node: CommonJS, nothing newer than Node 12", () => {
    const source = readFileSync("scripts/check-node.cjs", "utf8").replace(/\/\/.*$/gm, "");
    expect(source).not.toMatch(/=>|\?\.|\?\?|\bimport\b|\bclass\b|\basync\b|\bawait\b/);
  });

  it("runs before every npm script but postinstall (which only follows an install)", () => {
    const scripts = pkg.scripts as Record<string, string>;
    for (const name of Object.keys(scripts)) {
      if (name.startsWith("pre") && scripts[name.slice(3)] !== undefined) continue;
      if (name === "postinstall") continue;
      expect(scripts[`pre${name}`], `pre${name}`).toBe("node scripts/check-node.cjs");
    }
    // the image runs `npm run db:migrate` as fly.toml's release command
    expect(readFileSync("Dockerfile", "utf8")).toMatch(/^COPY scripts\/check-node\.cjs /m);
  });

  // npm checks engines against the Node it runs on (npm 11 has no setting to pretend otherwise):
  // these run on the machine's own Node when it is another one (Debian's 20 on these machines).
  const system = "/usr/bin/node";
  const systemVersion = existsSync(system)
    ? spawnSync(system, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim()
    : "";
  const wrong = systemVersion !== "" && !checker.satisfies(systemVersion, pkg.engines.node);

  it("names the fix in `npm install`'s own refusal (engine-strict, .npmrc)", () => {
    expect(readFileSync(".npmrc", "utf8")).toMatch(/^engine-strict=true$/m);
    // npm's error block has no room for our line; the engines entry it prints carries the fix
    expect(pkg.engines["wrong-node"]).toContain("eval $(bash scripts/node-lts.sh --env)");
  });

  it.skipIf(!wrong)("refuses the machine's own Node in the checker and in `npm ci`", async () => {
    const { code, stderr } = check(undefined, system);
    expect(code).toBe(1);
    expect(stderr).toContain(`this is Node ${systemVersion}. Run: ${checker.FIX}`);
    // `npm ci` stops before it touches node_modules: in a copy, so nothing here is at stake
    const dir = mkdtempSync(path.join(os.tmpdir(), "bidyard-engine-"));
    folders.push(dir);
    for (const file of ["package.json", "package-lock.json", ".npmrc"]) {
      copyFileSync(file, path.join(dir, file));
    }
    const refused = await promisify(execFile)(
      "npm",
      ["ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"],
      { cwd: dir, env: { ...process.env, PATH: `${path.dirname(system)}:${process.env.PATH}` } },
    ).then(
      () => "",
      (error: { stderr?: string }) => error.stderr ?? String(error),
    );
    expect(refused).toContain("EBADENGINE");
    expect(refused).toContain(`"wrong-node":"${pkg.engines["wrong-node"]}"`);
  });
});
