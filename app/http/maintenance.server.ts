// The maintenance page's answer for a person (docs/decisions/2852): a 503 carrying who is signed
// in, so the page greets them and offers sign-out instead of "Sign In / Register", and nothing
// that leads back to itself. Calls get the JSON 503 of maintenanceGate.
import { data } from "@remix-run/node";
import type { User } from "~/models/user.server";
import type { MaintenanceNotice } from "~/utils/maintenance";
import { MAINTENANCE_MESSAGE, MAINTENANCE_RETRY_SECONDS } from "~/services/admin/settings.server";

/** What a page loader or a form post throws while maintenance keeps this person out. */
export function maintenancePage(user: Pick<User, "firstName" | "email"> | null) {
  const notice: MaintenanceNotice = {
    maintenance: true,
    message: MAINTENANCE_MESSAGE,
    retryAfterSeconds: MAINTENANCE_RETRY_SECONDS,
    user: user ? { firstName: user.firstName ?? null, email: user.email } : null,
  };
  return data(notice, {
    status: 503,
    headers: { "Retry-After": String(MAINTENANCE_RETRY_SECONDS), "Cache-Control": "no-store" },
  });
}
