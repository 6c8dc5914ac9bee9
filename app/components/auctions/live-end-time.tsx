import { browserTimeZone, formatInZone } from "~/services/accounts/time-zones";
import { useHydrated } from "~/utils/use-hydrated";

/**
 * "Ends Nov 24, 3:42 PM CST": in the browser's zone once scripts run, in the account's zone in
 * the server's HTML (and so without JavaScript). docs/decisions/1802.
 */
export function EndTime({ endsAt, accountZone }: { endsAt: string; accountZone: string }) {
  const hydrated = useHydrated();
  const zone = (hydrated && browserTimeZone()) || accountZone;
  return (
    <span data-testid="ends-at">
      Ends <span suppressHydrationWarning>{formatInZone(endsAt, zone)}</span>
    </span>
  );
}
