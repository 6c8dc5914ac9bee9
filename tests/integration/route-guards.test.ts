// Every route module guards its own loader and action, by the guard for its kind
// (docs/decisions/3611): a page's (a module with a default export, the root's too) answers the
// maintenance page, a resource route's a plain or JSON 503. A new route without its guard fails
// here. Maintenance is on and the caller signed out, so a guarded handler answers before any of
// the route's own code runs; an unguarded one runs and answers something else.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ConnectionError } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";
import { UNAVAILABLE } from "~/platform/availability.server";
import { updateSetting } from "~/services/admin/settings.server";
import { createTestUser } from "../support/auth";

type Handler = (args: { request: Request; params: object; context: object }) => unknown;
type RouteModule = { default?: unknown; loader?: Handler; action?: Handler };

/** app/root.tsx and every route module under app/routes (files and route.tsx folders). */
function routeFiles() {
  const dir = path.resolve("app/routes");
  const files = [path.resolve("app/root.tsx")];
  for (const entry of readdirSync(dir).sort()) {
    for (const name of ["route.tsx", "route.ts"])
      if (existsSync(path.join(dir, entry, name))) files.push(path.join(dir, entry, name));
    if (/\.tsx?$/.test(entry)) files.push(path.join(dir, entry));
  }
  return files;
}

// no route answers this path, and maintenance keeps it closed (it is not one always open)
const URL_CHECKED = "http://localhost:3000/guard-check";

async function answerOf(handler: Handler, method: string) {
  const request = new Request(URL_CHECKED, {
    method,
    ...(method === "POST"
      ? { body: "a=1", headers: { "Content-Type": "application/x-www-form-urlencoded" } }
      : {}),
  });
  try {
    return { returned: await handler({ request, params: {}, context: {} }) };
  } catch (thrown) {
    return { thrown };
  }
}

/** What the guard of each kind throws during maintenance, to a signed-out visitor. */
function guardedAs(answer: { thrown?: unknown }): "page" | "resource" | "unguarded" {
  const thrown = answer.thrown as
    | { type?: string; data?: { maintenance?: boolean }; init?: { status?: number } }
    | Response
    | undefined;
  if (thrown instanceof Response)
    return thrown.status === 503 && thrown.headers.get("Retry-After") === "300"
      ? "resource"
      : "unguarded";
  if (thrown?.type === "DataWithResponseInit" && thrown.init?.status === 503)
    return thrown.data?.maintenance ? "page" : "unguarded";
  return "unguarded";
}

describe("every route module's loader and action", () => {
  beforeAll(async () => {
    await updateSetting(await createTestUser({ role: "admin" }), "maintenanceMode", true);
  });
  afterAll(async () => {
    await updateSetting(await createTestUser({ role: "admin" }), "maintenanceMode", false);
  });

  it("is guarded, by the guard for its kind of route", async () => {
    const found: string[] = [];
    const wrong: string[] = [];
    for (const file of routeFiles()) {
      const module = (await import(/* @vite-ignore */ file)) as RouteModule;
      const kind = module.default ? "page" : "resource";
      const name = path.relative(process.cwd(), file);
      for (const [exported, method] of [
        ["loader", "GET"],
        ["action", "POST"],
      ] as const) {
        const handler = module[exported];
        if (!handler) continue;
        found.push(`${name} ${exported}`);
        const as = guardedAs(await answerOf(handler, method));
        if (as !== kind) wrong.push(`${name}: its ${exported} is ${as}, not a ${kind}'s guard`);
      }
    }
    expect(wrong).toEqual([]);
    // the count keeps the check honest: a listing that found nothing would pass
    expect(found.length).toBeGreaterThan(150);
  });
});

describe("the guard", () => {
  it("answers a database outage 503 with Retry-After, a bug stays what it was", async () => {
    const outage = () => Promise.reject(new ConnectionError(new Error("ECONNREFUSED")));
    const call = new Request("http://localhost:3000/api/x", {
      headers: { Accept: "application/json" },
    });
    const args = { request: call, params: {}, context: {} };
    const answer = (await guardResourceLoader(args, outage).catch((e: unknown) => e)) as Response;
    expect(answer.status).toBe(503);
    expect(answer.headers.get("Retry-After")).toBe("10");
    expect(((await answer.json()) as { error: string }).error).toBe(UNAVAILABLE);
    const bug = new Error("a bug");
    await expect(guardResourceLoader(args, () => Promise.reject(bug))).rejects.toBe(bug);
    expect(await guardResourceLoader(args, async () => 42)).toBe(42);
  });

  it("refuses a multipart post without its boundary before the action runs", async () => {
    let ran = false;
    const request = new Request("http://localhost:3000/api/x", {
      method: "POST",
      body: "x",
      headers: { "Content-Type": "multipart/form-data" },
    });
    const answer = (await guardResourceAction({ request }, () => {
      ran = true;
    }).catch((e: unknown) => e)) as Response;
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("The form could not be read");
    expect(ran).toBe(false);
  });
});

describe("forms", () => {
  it("are read by readForm alone, never by request.formData() in a route or a helper", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !file.endsWith("form-body.server.ts"))
          if (/\.formData\(\)/.test(readFileSync(file, "utf8"))) offenders.push(file);
      }
    };
    walk(path.resolve("app"));
    expect(offenders).toEqual([]);
  });
});
