// Who may reach each route file. The authorization matrix test reads app/routes and fails on any
// route missing here, so a new route cannot land without saying who may use it.
export type Access =
  | "public" // anyone, signed in or not
  | "user" // signed-in people (visitors: a sign-in redirect for pages, 401 for calls)
  | "admin"; // admins only (others: 403)

export type Persona =
  "visitor" | "unverified" | "bidder" | "pendingAffiliate" | "approvedAffiliate" | "admin";

export type RouteAccess = {
  /** A concrete URL for the route (dynamic segments filled with ids that do not exist). */
  path: string;
  access: Access;
  /** Per-persona status for GET where it differs from what `access` implies. */
  get?: Partial<Record<Persona, number | number[]>>;
  /** Per-persona status for an empty same-origin POST where it differs. */
  post?: Partial<Record<Persona, number | number[]>>;
};

const NO_SUCH_UUID = "00000000-0000-4000-8000-000000000000";

export const ROUTE_ACCESS: Record<string, RouteAccess> = {
  "$.tsx": {
    path: "/no-such-page",
    access: "public",
    get: {
      visitor: 404,
      unverified: 404,
      bidder: 404,
      pendingAffiliate: 404,
      approvedAffiliate: 404,
      admin: 404,
    },
  },
  "_index.tsx": { path: "/", access: "public" },
  "healthz.ts": { path: "/healthz", access: "public" },
  "api.login.ts": { path: "/api/login", access: "public" },
  "api.callback.tsx": {
    path: "/api/callback",
    access: "public",
    get: {
      visitor: 400,
      unverified: 400,
      bidder: 400,
      pendingAffiliate: 400,
      approvedAffiliate: 400,
      admin: 400,
    },
  },
  "api.logout.ts": { path: "/api/logout", access: "public" },
  "api.auth.user.ts": { path: "/api/auth/user", access: "user" },
  "admin._index.tsx": { path: "/admin", access: "admin" },
  "admin.early-access[.]csv.ts": { path: "/admin/early-access.csv", access: "admin" },
  "admin.users.$id.tsx": {
    path: `/admin/users/${NO_SUCH_UUID}`,
    access: "admin",
    get: { admin: 404 },
    post: { admin: [400, 404] },
  },
  "api.admin.audit.ts": { path: "/api/admin/audit", access: "admin" },
  "api.admin.prelaunch-signups.ts": { path: "/api/admin/prelaunch-signups", access: "admin" },
  "api.admin.settings.ts": {
    path: "/api/admin/settings",
    access: "admin",
    post: { admin: [400, 415] },
  },
  "api.admin.stats.ts": { path: "/api/admin/stats", access: "admin" },
  "api.admin.users.$id.ts": {
    path: `/api/admin/users/${NO_SUCH_UUID}`,
    access: "admin",
    post: { admin: [400, 404, 415] },
  },
  "api.admin.users.ts": { path: "/api/admin/users", access: "admin" },
};
