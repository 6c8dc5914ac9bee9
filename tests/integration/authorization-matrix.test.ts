// Every route file against every kind of person: visitors are sent to sign in (pages) or get 401
// (calls), non-admins get 403 on admin routes, cross-origin posts get 403, and nothing answers 5xx.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalIssuer, type LocalIssuer } from "../../scripts/local-issuer";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { resetEnvForTests } from "~/platform/env.server";
import { ROUTE_ACCESS, type Persona, type RouteAccess } from "../support/route-access";
import { createTestUser, requestAs } from "../support/auth";
import { paramsFor, routeModuleFiles } from "../support/route-files";

const routeModules = routeModuleFiles();
const routeFiles = routeModules.map((route) => route.name);

type RouteModule = {
  loader?: (args: { request: Request; params: Record<string, string>; context: object }) => unknown;
  action?: (args: { request: Request; params: Record<string, string>; context: object }) => unknown;
};

const PERSONAS: Persona[] = [
  "visitor",
  "unverified",
  "bidder",
  "pendingAffiliate",
  "approvedAffiliate",
  "admin",
];
const people = {} as Record<Exclude<Persona, "visitor">, User>;
let issuer: LocalIssuer;

beforeAll(async () => {
  issuer = await startLocalIssuer({ redirectUris: ["http://localhost:3000/api/callback"] });
  process.env.LOCAL_OIDC_PORT = String(issuer.port);
  resetEnvForTests();
  people.unverified = await createTestUser();
  people.bidder = await createTestUser({ verified: true, deposit: "2500.00" });
  people.pendingAffiliate = await createTestUser({ accountType: "affiliate" });
  people.approvedAffiliate = await createTestUser({ accountType: "affiliate", verified: true });
  people.admin = await createTestUser({ role: "admin", verified: true });
  // Real applications, so the affiliate personas are what their names say.
  for (const [persona, status] of [
    ["pendingAffiliate", "pending"],
    ["approvedAffiliate", "approved"],
  ] as const) {
    await sequelize.query(
      `insert into affiliate_applications (user_id, company_name, service_types, business_phone,
         business_email, service_areas, status, reviewed_at)
       values ($1, 'Matrix Haulers', array['shipping'], '555-0100', 'ops@matrix.test', array['TX'],
         $2, case when $2 = 'pending' then null else now() end)`,
      { bind: [people[persona].id, status] },
    );
  }
});

afterAll(() => issuer.stop());

async function call(
  handler: NonNullable<RouteModule["loader"]>,
  request: Request,
  params: Record<string, string>,
) {
  try {
    const result = await handler({ request, params, context: {} });
    if (result instanceof Response) return result.status;
    const init = (result as { init?: ResponseInit } | null)?.init;
    return init?.status ?? 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

function expected(route: RouteAccess, persona: Persona, method: "get" | "post"): number[] | "ok" {
  const override = route[method]?.[persona];
  if (override !== undefined) return Array.isArray(override) ? override : [override];
  if (persona === "visitor" && route.access !== "public") return [302, 401];
  if (route.access === "admin" && persona !== "admin") return [403];
  return "ok";
}

function check(status: number, want: number[] | "ok", label: string) {
  expect(status, label).toBeLessThan(500);
  if (want === "ok") {
    expect([401, 403], `${label} must be allowed`).not.toContain(status);
  } else {
    expect(want, `${label} answered ${status}`).toContain(status);
  }
}

describe("authorization matrix", () => {
  it("lists every route file", () => {
    const missing = routeFiles.filter((file) => !(file in ROUTE_ACCESS));
    expect(missing, "add these routes to tests/support/route-access.ts").toEqual([]);
    const stale = Object.keys(ROUTE_ACCESS).filter((file) => !routeFiles.includes(file));
    expect(stale, "remove these from tests/support/route-access.ts").toEqual([]);
  });

  for (const file of routeFiles) {
    const route = ROUTE_ACCESS[file];
    if (!route) continue;
    it(`${file}: each person gets what they should`, async () => {
      const modulePath = routeModules.find((route) => route.name === file)!.file;
      const mod = (await import(/* @vite-ignore */ modulePath)) as RouteModule;
      const params = paramsFor(file, route.path);
      for (const persona of PERSONAS) {
        const user = persona === "visitor" ? null : people[persona];
        if (mod.loader) {
          const status = await call(mod.loader, await requestAs(user, route.path), params);
          check(status, expected(route, persona, "get"), `GET ${route.path} as ${persona}`);
        }
        if (mod.action) {
          const method = route.method ?? "POST";
          const request = await requestAs(user, route.path, { method, form: {} });
          const status = await call(mod.action, request, params);
          check(status, expected(route, persona, "post"), `${method} ${route.path} as ${persona}`);
          const cross = await requestAs(user, route.path, { method, form: {} });
          cross.headers.set("Origin", "https://evil.example");
          const crossStatus = await call(mod.action, cross, params);
          const label = `cross-origin ${method} ${route.path} as ${persona}`;
          expect(route.crossOrigin ?? [403], label).toContain(crossStatus);
        }
      }
    });
  }
});
