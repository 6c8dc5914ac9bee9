import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { DEFAULT_TIME_ZONE } from "./time-zones";

export function useOptionalUser() {
  return useRouteLoaderData<typeof rootLoader>("root")?.user ?? null;
}

export function useUser() {
  const user = useOptionalUser();
  if (!user)
    throw new Error("useUser needs a signed-in user; guard the route's loader with requireUser");
  return user;
}

/** The zone the server writes times in: the account's setting, or the default when signed out. */
export function useAccountTimeZone() {
  return useRouteLoaderData<typeof rootLoader>("root")?.timeZone ?? DEFAULT_TIME_ZONE;
}
