// What every loader and action of the production server answers the same way, whatever the
// route: a clear 503 with Retry-After when the database cannot be reached (a bug stays a 500),
// and the maintenance 503 for calls and form posts as for pages. server.mjs applies it to the
// build (docs/decisions/1308-outages-and-maintenance-for-every-route.md).
import type { ServerBuild } from "@remix-run/node";
import { getSettings, maintenanceGate } from "~/services/admin/settings.server";
import { getUser } from "~/services/accounts/session.server";
import { databaseUnavailable, isDatabaseOutage } from "~/platform/availability.server";
import { cleanFormData } from "~/utils/clean-text";

type Handler = (args: { request: Request }) => unknown;

/** During maintenance, a call or a form post answers 503 unless it is an admin's or always open. */
async function maintenanceFor(request: Request) {
  const settings = await getSettings();
  if (!settings.maintenanceMode) return;
  await maintenanceGate(request, await getUser(request), settings);
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

function guard(handler: Handler, gate: boolean, action = false): Handler {
  return async (args) => {
    if (action) cleanedForms(args.request);
    try {
      if (gate) await maintenanceFor(args.request);
      return await handler(args);
    } catch (error) {
      if (isDatabaseOutage(error)) throw databaseUnavailable(args.request);
      throw error;
    }
  };
}

/**
 * The build with every route's loader and action guarded. Page loaders are gated for maintenance
 * by the root loader already; resource routes (the /api calls, files, CSV) and every action are
 * gated here.
 */
export function guardRoutes(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const module = { ...route.module } as Record<string, unknown>;
    const resource = !module.default;
    if (typeof module.loader === "function") {
      module.loader = guard(module.loader as Handler, resource);
    }
    if (typeof module.action === "function")
      module.action = guard(module.action as Handler, true, true);
    routes[id] = { ...route, module: module as unknown as typeof route.module };
  }
  return { ...build, routes };
}
