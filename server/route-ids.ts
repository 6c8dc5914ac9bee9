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
  return (pathname: string) => {
    const path = pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/");
    const matches = matchRoutes(routes, path, build.basename);
    return matches?.[matches.length - 1].route.id ?? "none";
  };
}
