// What every loader and action of the production server answers the same way, whatever the
// route: a clear 503 with Retry-After when the database cannot be reached (a bug stays a 500),
// and the maintenance 503 for calls and form posts as for pages. The server (server/worker.ts) applies it to the
// build (docs/decisions/1308-outages-and-maintenance-for-every-route.md).
import type { ServerBuild } from "@remix-run/node";
import {
  closedForMaintenance,
  getSettings,
  maintenanceGate,
} from "~/services/admin/settings.server";
import { getUser } from "~/services/accounts/session.server";
import { databaseUnavailable, isDatabaseOutage } from "~/platform/availability.server";
import { wantsJson } from "./http.server";
import { maintenancePage } from "./maintenance.server";
import { cleanFormData } from "~/utils/clean-text";

type Handler = (args: { request: Request }) => unknown;

/**
 * During maintenance, a call or a form post answers 503 unless it is an admin's or always open. A
 * page's form post gets the maintenance page (who is signed in included); a call, JSON.
 */
async function maintenanceFor(request: Request, page: boolean) {
  const settings = await getSettings();
  if (!settings.maintenanceMode) return;
  const user = await getUser(request);
  if (page && !wantsJson(request)) {
    if (closedForMaintenance(request, user, settings)) throw maintenancePage(user);
    return;
  }
  await maintenanceGate(request, user, settings);
}

/**
 * An action's form fields reach it without control characters (docs/decisions/3011): its
 * request's formData() answers the cleaned copy. Multipart uploads are read by their own
 * readers, which clean each text field the same way.
 */
function cleanedForms(request: Request) {
  const read = request.formData.bind(request);
  Object.defineProperty(request, "formData", {
    value: async () => cleanFormData(await read()),
    configurable: true,
  });
}

function guard(handler: Handler, gate: boolean, page: boolean, action = false): Handler {
  return async (args) => {
    if (action) cleanedForms(args.request);
    try {
      if (gate) await maintenanceFor(args.request, page);
      return await handler(args);
    } catch (error) {
      if (isDatabaseOutage(error)) throw databaseUnavailable(args.request);
      throw error;
    }
  };
}

/**
 * The build with every route's loader and action guarded, and gated for maintenance: pages and
 * their form posts answer the maintenance page, resource routes (the /api calls, files, CSV) a
 * plain or JSON 503. The root loader gates pages too, for `npm run dev`, which applies no guard.
 */
export function guardRoutes(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const module = { ...route.module } as Record<string, unknown>;
    const resource = !module.default;
    if (typeof module.loader === "function") {
      // every loader, pages' too: a page's own redirect (to sign in, say) would otherwise win
      // over the root loader's maintenance page (docs/decisions/2852)
      module.loader = guard(module.loader as Handler, true, !resource);
    }
    if (typeof module.action === "function")
      module.action = guard(module.action as Handler, true, !resource, true);
    routes[id] = { ...route, module: module as unknown as typeof route.module };
  }
  return { ...build, routes };
}
