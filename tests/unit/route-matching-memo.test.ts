// The patches in patches/ (applied by `npm install`'s postinstall), each kept for what it bought
// on the bench (docs/decisions/3102): @remix-run/router keeps each route table's ranked branches
// (1902) and skips a branch whose whole path cannot match (1908); @remix-run/server-runtime,
// @remix-run/react and react-router-dom make a render's routes once per build (1910); and
// @remix-run/server-runtime hands every loader of a request the request itself when there is no
// Remix parameter to strip from it (1904). These fail when a patch is missing, and check that
// matching still picks the same routes and sees routes added at run time.
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
type Route = { id: string; path?: string; index?: boolean; children?: Route[] };
type Router = {
  matchRoutes: (routes: Route[], location: string) => Array<{ route: Route }> | null;
  matchPath: (pattern: string, pathname: string) => { params: Record<string, string> } | null;
  UNSAFE_rankedBranches?: (routes: Route[]) => Array<{ fullPathMatcher?: RegExp | null }>;
  createMemoryHistory: () => unknown;
  createRouter: (init: { routes: Route[]; history: unknown }) => {
    routes: Route[];
    patchRoutes: (routeId: string | null, children: Route[]) => void;
  };
};
// The copy the server's runtime loads (it requires the CommonJS build).
const runtimeRequire = createRequire(require.resolve("@remix-run/server-runtime"));
const router = runtimeRequire("@remix-run/router") as Router;

const table = (): Route[] => [
  {
    id: "root",
    path: "",
    children: [
      { id: "home", index: true },
      { id: "auctions", path: "auctions" },
      { id: "lot", path: "auctions/:lotId" },
      { id: "new-lot", path: "auctions/new" },
      { id: "api-bids", path: "api/bids" },
      { id: "optional", path: "vehicle/:id/:tab?" },
      { id: "splat", path: "*" },
    ],
  },
];
const leaf = (routes: Route[], path: string) => router.matchRoutes(routes, path)?.at(-1)?.route.id;

describe("route matching over a static table (the @remix-run/router patch)", () => {
  it("is applied to the copy the server loads", () => {
    expect(runtimeRequire.resolve("@remix-run/router")).toBe(require.resolve("@remix-run/router"));
    expect(typeof router.UNSAFE_rankedBranches).toBe("function");
  });

  it("ranks a table's branches once and keeps them for that table", () => {
    const routes = table();
    const first = router.UNSAFE_rankedBranches!(routes);
    expect(router.UNSAFE_rankedBranches!(routes)).toBe(first);
    expect(router.UNSAFE_rankedBranches!(table())).not.toBe(first);
  });

  it("still picks the same routes, whichever was asked first", () => {
    const routes = table();
    for (let round = 0; round < 2; round += 1) {
      expect(leaf(routes, "/")).toBe("home");
      expect(leaf(routes, "/auctions")).toBe("auctions");
      expect(leaf(routes, "/auctions/new")).toBe("new-lot");
      expect(leaf(routes, "/auctions/42")).toBe("lot");
      expect(leaf(routes, "/AUCTIONS/42/")).toBe("lot");
      expect(leaf(routes, "/api/bids")).toBe("api-bids");
      expect(leaf(routes, "/vehicle/7")).toBe("optional");
      expect(leaf(routes, "/vehicle/7/photos")).toBe("optional");
      expect(leaf(routes, "/no/such/page")).toBe("splat");
      expect(router.matchRoutes(routes, "/auctions/42")!.at(-1)).toMatchObject({
        params: { lotId: "42" },
      });
    }
    expect(router.matchPath("/auctions/:lotId", "/auctions/9")?.params).toEqual({ lotId: "9" });
    expect(router.matchPath("/auctions/:lotId", "/auctions/9/x")).toBeNull();
  });

  it("sees routes added to a live table", () => {
    const live = router.createRouter({
      routes: [{ id: "root", path: "/", children: [{ id: "a", path: "a" }] }],
      history: router.createMemoryHistory(),
    });
    expect(leaf(live.routes, "/b")).toBeUndefined();
    live.patchRoutes("root", [{ id: "b", path: "b" }]);
    expect(leaf(live.routes, "/b")).toBe("b");
  });
});

describe("skipping branches whose whole path cannot match (the @remix-run/router patch)", () => {
  // The app's own route table, as `remix build` makes it from app/routes.
  const devRequire = createRequire(require.resolve("@remix-run/dev"));
  const { flatRoutes } = devRequire("./config/flat-routes.js") as {
    flatRoutes: (
      appDirectory: string,
    ) => Record<
      string,
      { id: string; path?: string; index?: boolean; caseSensitive?: boolean; parentId?: string }
    >;
  };
  const appTable = (): Route[] => {
    const manifest = {
      root: { id: "root", path: "" },
      ...flatRoutes(path.resolve("app")),
    } as Record<string, Route & { parentId?: string }>;
    const children = (parentId: string): Route[] =>
      Object.values(manifest)
        .filter((route) => (route.parentId ?? (route.id === "root" ? null : "root")) === parentId)
        .map((route) => ({
          id: route.id,
          path: route.path,
          index: route.index,
          children: children(route.id),
        }));
    return [{ id: "root", path: "", children: children("root") }];
  };
  // every route's path with its parameters filled in, and the same with extra segments, case
  // changes, trailing slashes and encoded characters
  const samples = (routes: Route[]) => {
    const paths = new Set<string>(["/", "/no/such/page", "/%20x", "//double", "/api"]);
    const walk = (route: Route, parent: string) => {
      const full = route.path ? `${parent}/${route.path}` : parent;
      const filled = full.replace(/:[^/]+/g, "42").replace(/\*$/, "a/b");
      for (const p of [filled, `${filled}/`, `${filled}/extra`, filled.toUpperCase()])
        paths.add(p.startsWith("/") ? p : `/${p}`);
      for (const child of route.children ?? []) walk(child, full);
    };
    routes.forEach((route) => walk(route, ""));
    return [...paths];
  };

  it("picks what the full walk over every branch picks, for every route of the app", () => {
    const filtered = appTable();
    const walked = appTable();
    const branches = router.UNSAFE_rankedBranches!(walked);
    expect(branches.length).toBeGreaterThan(50);
    expect(router.UNSAFE_rankedBranches!(filtered).every((b) => b.fullPathMatcher)).toBe(true);
    for (const branch of branches) branch.fullPathMatcher = null;
    const urls = samples(filtered);
    expect(urls.length).toBeGreaterThan(200);
    const ids = (table: Route[], url: string) =>
      router
        .matchRoutes(table, url)
        ?.map((m) => [m.route.id, JSON.stringify((m as { params?: unknown }).params)]);
    for (const url of urls) expect(ids(filtered, url), url).toEqual(ids(walked, url));
  });

  it("is consulted: a branch whose whole-path test fails is not walked", () => {
    const routes = table();
    const lot = router.UNSAFE_rankedBranches!(routes).find((b) =>
      (b as { path?: string }).path?.endsWith("auctions/:lotId"),
    )!;
    expect(leaf(routes, "/auctions/42")).toBe("lot");
    lot.fullPathMatcher = /^(?!)/; // matches nothing: the branch must now be skipped
    expect(leaf(routes, "/auctions/42")).toBe("splat");
  });
});

describe("a render's routes, made once per build (the @remix-run/react, react-router-dom and server-runtime patches)", () => {
  const reactRequire = createRequire(require.resolve("@remix-run/react"));
  const staticServer = reactRequire("react-router-dom/server") as {
    createStaticRouter: (
      routes: Route[],
      context: { matches: Array<{ route: Route }>; basename: string },
    ) => { routes: Route[] };
  };
  const entry = runtimeRequire("@remix-run/server-runtime/dist/entry.js") as {
    createEntryRouteModules: (manifest: Record<string, { module: unknown }>) => unknown;
  };

  it("keeps the data routes of one routes array for every render", () => {
    const routes = table();
    const context = { matches: [], basename: "/" };
    const first = staticServer.createStaticRouter(routes, context);
    expect(staticServer.createStaticRouter(routes, context).routes).toBe(first.routes);
    expect(staticServer.createStaticRouter(table(), context).routes).not.toBe(first.routes);
    expect(first.routes[0].children?.map((route) => route.id)).toContain("lot");
  });

  it("keeps the route modules map of one build", () => {
    const manifest = { root: { module: { default: 1 } }, lot: { module: { default: 2 } } };
    const modules = entry.createEntryRouteModules(manifest);
    expect(modules).toEqual({ root: { default: 1 }, lot: { default: 2 } });
    expect(entry.createEntryRouteModules(manifest)).toBe(modules);
  });

  it("is applied to RemixServer: a render takes its routes from the per-build cache", () => {
    // (the pages' own tests render through it; this only says the patch is in place)
    const server = reactRequire("./server.js") as { RemixServer: unknown };
    expect(String(server.RemixServer)).toContain("serverRoutesFor(");
  });
});

describe("loaders of one request (the @remix-run/server-runtime patch)", () => {
  const data = runtimeRequire("@remix-run/server-runtime/dist/data.js") as {
    callRouteLoader: (args: {
      loadContext: unknown;
      loader: (args: { request: Request }) => unknown;
      params: Record<string, string>;
      request: Request;
      routeId: string;
      singleFetch: boolean;
    }) => Promise<unknown>;
  };
  const seen = async (url: string, singleFetch: boolean) => {
    const request = new Request(url);
    let given: Request | undefined;
    await data.callRouteLoader({
      loadContext: {},
      loader: ({ request: r }) => ((given = r), null),
      params: {},
      request,
      routeId: "root",
      singleFetch,
    });
    return { request, given: given! };
  };

  it("share the request when there is nothing to strip from its address", async () => {
    for (const singleFetch of [true, false]) {
      const { request, given } = await seen("http://localhost/auctions?make=Ford", singleFetch);
      expect(given).toBe(request);
    }
  });

  it("still lose Remix's own parameters", async () => {
    const routes = await seen("http://localhost/auctions?make=Ford&_routes=root&index", true);
    expect(routes.given.url).toBe("http://localhost/auctions?make=Ford");
    const legacy = await seen("http://localhost/auctions?_data=root&make=Ford", false);
    expect(legacy.given.url).toBe("http://localhost/auctions?make=Ford");
  });
});
