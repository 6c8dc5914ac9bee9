// The route id on each request's log line and metric: the build's route manifest matched by the
// router's public matchRoutes, as Remix's server runtime matches it (the same nested table and
// ranking; the ranked table is kept by the router patch, docs/decisions/1902).
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { ServerBuild } from "@remix-run/node";

type RouteEntry = ServerBuild["routes"][string];

export function routeIdMatcher(build: Pick<ServerBuild, "routes" | "basename">) {
  const byParent = new Map<string, RouteEntry[]>();
  for (const route of Object.values(build.routes)) {
    const parent = route.parentId ?? "";
    byParent.set(parent, [...(byParent.get(parent) ?? []), route]);
  }
  const tree = (parentId: string): AgnosticRouteObject[] =>
    (byParent.get(parentId) ?? []).map((route) => {
      const children = route.index ? [] : tree(route.id);
      return {
        id: route.id,
        path: route.path,
        index: route.index,
        caseSensitive: route.caseSensitive,
        ...(children.length ? { children } : {}),
      } as AgnosticRouteObject;
    });
  const routes = tree("");
  // A path's route never changes while the server runs: each is matched once and kept (up to
  // 2,000 paths, then the table starts over, so endless distinct paths cannot grow it), record 3403.
  const known = new Map<string, string>();
  return (pathname: string) => {
    let id = known.get(pathname);
    if (id !== undefined) return id;
    const path = pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/");
    const matches = matchRoutes(routes, path, build.basename);
    id = matches?.[matches.length - 1].route.id ?? "none";
    if (known.size >= 2_000) known.clear();
    known.set(pathname, id);
    return id;
  };
}
