import { useViewerTimeZone } from "~/services/accounts/use-user";
import { formatInstant, formatTime, type TimeStyle } from "~/utils/time";

/**
 * A moment as the viewer reads it (docs/decisions/2701): in the zone saved on their account,
 * the same in the server's HTML and after hydration, so with and without JavaScript.
 * `style` says what the moment is (see ~/utils/time): "instant" (default), "deadline" (due
 * dates), "bid" (a bid's time, with seconds), "day" or "month" (a record's day or month; the
 * title holds the full instant with its zone).
 */
export function LocalTime({
  at,
  style = "instant",
  testId,
}: {
  at: string | Date;
  style?: TimeStyle;
  testId?: string;
}) {
  const zone = useViewerTimeZone();
  const date = new Date(at);
  return (
    <time
      dateTime={date.toISOString()}
      title={style === "day" || style === "month" ? formatInstant(date, zone) : undefined}
      data-testid={testId}
    >
      {formatTime(date, zone, style)}
    </time>
  );
}
