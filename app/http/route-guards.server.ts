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
import { jsonError, wantsJson } from "./http.server";
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

/** How many fields a form may send, and how long one text field may be (docs/decisions/3205). */
export const MAX_FORM_FIELDS = 1000;
export const MAX_FORM_FIELD_CHARS = 64 * 1024;

export const FORM_UNREADABLE = "The form could not be read";
export const TOO_MANY_FIELDS = `The form has too many fields: at most ${MAX_FORM_FIELDS}`;
export const FIELD_TOO_LONG = `A form field is too long: at most ${MAX_FORM_FIELD_CHARS} characters`;

function badForm(request: Request, message: string) {
  return wantsJson(request)
    ? jsonError(400, message)
    : new Response(message, { status: 400, headers: { "Content-Type": "text/plain" } });
}

/** The form, or a thrown 400 naming the limit it passes, or saying it cannot be read. */
async function boundedForm(request: Request, read: () => Promise<FormData>) {
  let form: FormData;
  try {
    form = await read();
  } catch (error) {
    if (error instanceof Response) throw error;
    // undici's parser refuses a body that is not the form its content type says (a
    // multipart body without its boundary, say): the client's mistake, not ours
    throw badForm(request, FORM_UNREADABLE);
  }
  let count = 0;
  for (const [name, value] of form.entries()) {
    if (++count > MAX_FORM_FIELDS) throw badForm(request, TOO_MANY_FIELDS);
    if (name.length > MAX_FORM_FIELD_CHARS) throw badForm(request, FIELD_TOO_LONG);
    if (typeof value === "string" && value.length > MAX_FORM_FIELD_CHARS)
      throw badForm(request, FIELD_TOO_LONG);
  }
  return form;
}

/**
 * An action's form fields reach it within the limits above and without control characters
 * (docs/decisions/3011): its request's formData() answers the cleaned copy, or throws the 400.
 * Multipart uploads are read through it too (their readers call formData()), and clean each
 * text field the same way.
 */
function cleanedForms(request: Request) {
  const read = request.formData.bind(request);
  Object.defineProperty(request, "formData", {
    value: async () => cleanFormData(await boundedForm(request, read)),
    configurable: true,
  });
}

/**
 * A multipart body without its boundary cannot be read by any parser (the uploads' stream
 * readers threw a TypeError, a 500): refused before the action runs.
 */
function refuseBoundlessMultipart(request: Request) {
  const type = request.headers.get("content-type") ?? "";
  if (/^\s*multipart\/form-data/i.test(type) && !/;\s*boundary=[^;\s]/i.test(type))
    throw badForm(request, FORM_UNREADABLE);
}

function guard(handler: Handler, gate: boolean, page: boolean, action = false): Handler {
  return async (args) => {
    if (action) {
      refuseBoundlessMultipart(args.request);
      cleanedForms(args.request);
    }
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
