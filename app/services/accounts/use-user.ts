import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { DEFAULT_TIME_ZONE } from "~/utils/time";

export function useOptionalUser() {
  return useRouteLoaderData<typeof rootLoader>("root")?.user ?? null;
}

export function useUser() {
  const user = useOptionalUser();
  if (!user)
    throw new Error("useUser needs a signed-in user; guard the route's loader with requireUser");
  return user;
}

/**
 * The zone every time on the page is written in (docs/decisions/2701): the account's setting,
 * or Central when signed out. The server and the browser both use it, so they agree.
 */
export function useViewerTimeZone() {
  return useRouteLoaderData<typeof rootLoader>("root")?.timeZone ?? DEFAULT_TIME_ZONE;
}
