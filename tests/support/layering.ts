// The layering rules of docs/architecture.md, checked from the import specifiers of app/'s
// source files. The checker works on a map of repository-relative paths to source text, so a
// test can feed it a few invented files and see it fail.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export type SourceFiles = Map<string, string>;

export type Rule =
  | "route-imports-model"
  | "layer-imports-route"
  | "browser-imports-server"
  | "model-imports-feature";

export type Violation = {
  rule: Rule;
  file: string;
  imports: string;
  specifier: string;
  typeOnly: boolean;
};

export const RULES: Record<Rule, string> = {
  "route-imports-model":
    "a route imports app/models (go through a feature service in app/services)",
  "layer-imports-route":
    "app/services, platform, http, models, components or utils imports app/routes",
  "browser-imports-server":
    "a browser file (not *.server, not a route module, not a model) imports a *.server module",
  "model-imports-feature":
    "app/models imports a feature's server code or app/platform (only app/platform/env.server and plain value lists in app/services are allowed)",
};

const SOURCE = /\.(ts|tsx|js|jsx|mjs|cjs)$/;
const EXTENSIONS = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"];

/** Every source file under `root/app`, keyed `app/...` with forward slashes. */
export function readAppSources(root = process.cwd()): SourceFiles {
  const files: SourceFiles = new Map();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        files.set(rel, fs.readFileSync(path.join(root, rel), "utf8"));
      }
    }
  };
  walk("app");
  return files;
}

type Import = { specifier: string; typeOnly: boolean };

/** The module specifiers a file imports or re-exports, and whether each is erased (types only). */
export function importsOf(fileName: string, text: string): Import[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: Import[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const typeOnly = Boolean(
        clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            named &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((element) => element.isTypeOnly))),
      );
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `~/x` and relative specifiers to a known file (`app/...`); packages and unknowns to null. */
export function resolveSpecifier(from: string, specifier: string, files: SourceFiles) {
  let base: string;
  if (specifier.startsWith("~/")) base = `app/${specifier.slice(2)}`;
  else if (specifier.startsWith("./") || specifier.startsWith("../")) {
    base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  } else return null;
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => `${base}/index${ext}`),
    ...EXTENSIONS.map((ext) => `${base}/index.server${ext}`),
  ];
  return candidates.find((candidate) => files.has(candidate)) ?? base;
}

const under = (file: string, dir: string) => file.startsWith(`${dir}/`);
const isServer = (file: string) => /\.server(\.[cm]?[jt]sx?)?$/.test(file);

/**
 * A route module: app/root.tsx, a file directly in app/routes, or the `route.*` of a route
 * folder. Remix strips their loaders and actions (and so their .server imports) from the
 * browser build; any other file in a route folder is plain browser code.
 */
export function isRouteModule(file: string) {
  if (/^app\/root\.[jt]sx?$/.test(file)) return true;
  if (!under(file, "app/routes")) return false;
  const rest = file.slice("app/routes/".length).split("/");
  return rest.length === 1 || (rest.length === 2 && /^route\.[jt]sx?$/.test(rest[1]));
}

/** Whether the file's code reaches the browser bundle. */
export function isBrowserFile(file: string) {
  if (isServer(file) || under(file, "app/models") || isRouteModule(file)) return false;
  return !/^app\/entry\.server\./.test(file);
}

const LOWER_LAYERS = [
  "app/services",
  "app/platform",
  "app/http",
  "app/models",
  "app/components",
  "app/utils",
];

export function checkLayering(files: SourceFiles): Violation[] {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const [file, text] of files) {
    for (const { specifier, typeOnly } of importsOf(file, text)) {
      const target = resolveSpecifier(file, specifier, files);
      if (!target) continue;
      const add = (rule: Rule) => {
        const key = `${rule} ${file} ${target}`;
        if (seen.has(key)) return;
        seen.add(key);
        violations.push({ rule, file, imports: target, specifier, typeOnly });
      };
      if ((under(file, "app/routes") || isRouteModule(file)) && under(target, "app/models")) {
        add("route-imports-model");
      }
      if (LOWER_LAYERS.some((dir) => under(file, dir)) && under(target, "app/routes")) {
        add("layer-imports-route");
      }
      if (!typeOnly && isBrowserFile(file) && isServer(target)) add("browser-imports-server");
      // A model may read a feature's plain value lists (a column's allowed values live once, in
      // the browser-safe rules file the forms use too), never a feature's server code.
      const plainFeatureFile = under(target, "app/services") && !isServer(target);
      if (
        under(file, "app/models") &&
        ((under(target, "app/services") && !plainFeatureFile) || under(target, "app/platform")) &&
        !/^app\/platform\/env\.server\.[jt]sx?$/.test(target)
      ) {
        add("model-imports-feature");
      }
    }
  }
  return violations.sort((a, b) => a.rule.localeCompare(b.rule) || a.file.localeCompare(b.file));
}

/** One line per violation, grouped by rule, for a failing test's message. */
export function describeViolations(violations: Violation[]) {
  const lines: string[] = [];
  for (const rule of Object.keys(RULES) as Rule[]) {
    const own = violations.filter((violation) => violation.rule === rule);
    if (own.length === 0) continue;
    lines.push(`${rule}: ${RULES[rule]} (${own.length})`);
    for (const { file, specifier, typeOnly } of own) {
      lines.push(`  ${file} -> ${specifier}${typeOnly ? " (types only)" : ""}`);
    }
  }
  return lines.join("\n");
}
