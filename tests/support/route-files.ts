// The route modules under app/routes, named as Remix names them: a flat file by its file name, a
// route folder (`admin._index/route.tsx`) by the folder's name plus its route file's extension
// ("admin._index.tsx"), so the access and a11y lists keep one key per URL whichever shape a
// route has.
import fs from "node:fs";
import path from "node:path";

export const ROUTES_DIR = path.resolve("app/routes");

export type RouteModuleFile = { name: string; file: string };

export function routeModuleFiles(): RouteModuleFile[] {
  const out: RouteModuleFile[] = [];
  for (const entry of fs.readdirSync(ROUTES_DIR, { withFileTypes: true })) {
    if (entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !entry.name.includes(".test.")) {
      out.push({ name: entry.name, file: path.join(ROUTES_DIR, entry.name) });
    } else if (entry.isDirectory()) {
      for (const ext of ["tsx", "ts"]) {
        const file = path.join(ROUTES_DIR, entry.name, `route.${ext}`);
        if (fs.existsSync(file)) out.push({ name: `${entry.name}.${ext}`, file });
      }
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The params Remix would give route file `file` for `url`: `$id` (or `$id_`, its layout escaped)
 * takes the matching part of the path, a splat `$` the rest.
 */
export function paramsFor(file: string, url: string) {
  const segments = file
    .replace(/\.(ts|tsx)$/, "")
    .split(".")
    .filter((s) => s !== "_index");
  const parts = new URL(url, "http://localhost").pathname.split("/").filter(Boolean);
  const params: Record<string, string> = {};
  segments.forEach((segment, index) => {
    const name = segment.replace(/_$/, "");
    if (name.startsWith("$") && name.length > 1) params[name.slice(1)] = parts[index] ?? "";
    if (name === "$") params["*"] = parts.slice(index).join("/");
  });
  return params;
}
