// The guard every route module's loader and action runs in, called in the route file itself so
// a reader sees it (docs/decisions/3611):
//
//   export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);
//
// It answers the same way whatever the route: the maintenance 503 (pages and their form posts the
// maintenance page, resource routes a plain or JSON 503) and, the one outage rule, a clear 503
// with Retry-After when the database cannot be reached (a bug stays a 500; docs/decisions/1308,
// 2852). An action also refuses a multipart body without its boundary before it runs; it reads
// its form with readForm (form-body.server.ts). tests/integration/route-guards.test.ts checks
// that every route module's loader and action is guarded, by the guard for its kind.
//
// An arrow, not a wrapper called at module scope (`export const loader = guard(fn)`): Remix's
// compiler can drop an unused arrow from the browser bundle, not a call it cannot see into.
import {
  closedForMaintenance,
  getSettings,
  maintenanceGate,
} from "~/services/admin/settings.server";
import { getUser } from "~/services/accounts/session.server";
import { whileDatabaseUp } from "~/platform/availability.server";
import { onPrimary } from "~/platform/regions.server";
import { wantsJson } from "./http.server";
import { maintenancePage } from "./maintenance.server";
import { refuseBoundlessMultipart } from "./form-body.server";

type Args = { request: Request };

/**
 * During maintenance, a call or a form post answers 503 unless it is an admin's or always open. A
 * page's loader or form post gets the maintenance page (who is signed in included); a call, JSON.
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

async function guarded<A extends Args, T>(
  args: A,
  handler: (args: A) => T,
  page: boolean,
  action: boolean,
): Promise<Awaited<T>> {
  if (action) refuseBoundlessMultipart(args.request);
  const run = () =>
    whileDatabaseUp(args.request, async (): Promise<Awaited<T>> => {
      await maintenanceFor(args.request, page);
      return await handler(args);
    });
  // An action writes: on the primary, whatever the request reads (docs/decisions/3701).
  return action ? onPrimary(run) : run();
}

/**
 * A page's loader (a route module with a default export, the root's too): every loader is gated,
 * so a page's own redirect (to sign in, say) never answers instead of the maintenance page.
 */
export function guardLoader<A extends Args, T>(args: A, load: (args: A) => T) {
  return guarded(args, load, true, false);
}

/** A page's form post. */
export function guardAction<A extends Args, T>(args: A, act: (args: A) => T) {
  return guarded(args, act, true, true);
}

/** A resource route's loader (the /api calls, files, CSV): a plain or JSON 503. */
export function guardResourceLoader<A extends Args, T>(args: A, load: (args: A) => T) {
  return guarded(args, load, false, false);
}

/** A resource route's action. */
export function guardResourceAction<A extends Args, T>(args: A, act: (args: A) => T) {
  return guarded(args, act, false, true);
}
