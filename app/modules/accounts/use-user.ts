import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

export function useOptionalUser() {
  return useRouteLoaderData<typeof rootLoader>("root")?.user ?? null;
}

export function useUser() {
  const user = useOptionalUser();
  if (!user)
    throw new Error("useUser needs a signed-in user; guard the route's loader with requireUser");
  return user;
}
