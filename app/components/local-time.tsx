import { useAccountTimeZone } from "~/services/accounts/use-user";
import { browserTimeZone, formatDayInZone, formatInZone } from "~/services/accounts/time-zones";
import { useHydrated } from "~/utils/use-hydrated";

/**
 * A moment as the viewer reads it (docs/decisions/1802): "Nov 24, 3:42 PM CST" in the browser's
 * zone once scripts run, in the account's zone in the server's HTML (and so without JavaScript).
 * `day` shows only the date ("Nov 24, 2026"), as due dates are.
 */
export function LocalTime({ at, day = false }: { at: string | Date; day?: boolean }) {
  const hydrated = useHydrated();
  const accountZone = useAccountTimeZone();
  const zone = (hydrated && browserTimeZone()) || accountZone;
  const format = day ? formatDayInZone : formatInZone;
  return (
    <time dateTime={new Date(at).toISOString()} suppressHydrationWarning>
      {format(at, zone)}
    </time>
  );
}
