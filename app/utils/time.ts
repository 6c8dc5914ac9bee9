/**
 * The one time helper (docs/decisions/2701): every instant and calendar date a page, e-mail,
 * print view or notification shows goes through these functions, in the VIEWER's zone.
 *
 * - The viewer's zone is the one saved on their account (`users.time_zone`, an IANA name; Central
 *   by default and for signed-out visitors). Pages read it from the root loader
 *   (`useViewerTimeZone()`, or the `<LocalTime>` component, which does it for you); server code
 *   that writes to someone (notifications, e-mail) reads the recipient's with `userTimeZone()`
 *   from `~/services/accounts/time-zone.server`. The browser's own zone is never used to render,
 *   so a page reads the same with and without JavaScript.
 * - Pick the function by what the moment is, not by where it is shown:
 *     formatInstant   "Nov 24, 2026, 3:42 PM CST"       an event: ends, starts, paid, sent
 *     formatDeadline  "Mon, Nov 30, 2026, 5:00 PM CST"  a due date or any other cut-off
 *     formatBidTime   "Nov 24, 3:42:15 PM CST"          a bid in a lot's history (seconds matter)
 *     formatDay       "Nov 24, 2026"                     a record's day: joined, posted, uploaded
 *     formatTime(at, zone, "month")  "November 2026"     "member since"
 *   Every one of them names the zone except the day and month; `<LocalTime style="day">` puts the full
 *   instant with its zone in the element's title. Never print a date from `toISOString`,
 *   `toUTCString` or a formatter without `timeZone`: those are UTC (or the server's zone).
 * - Zone arithmetic (`zonedWallTime`, `atWallTime`, `endOfBusinessDay`) turns "5 PM in the yard's
 *   zone, N business days after the sale" into one instant, daylight saving included.
 *
 * Plain TypeScript, free of zod and server code: the browser and the server import it alike.
 */
import { isUsFederalHoliday } from "./us-holidays";

/** Most yards and bidders are in the US; Central is the auction houses' own clock. */
export const DEFAULT_TIME_ZONE = "America/Chicago";

/** True for a valid IANA zone name (what `users.time_zone` may hold). */
export function isTimeZone(value: string) {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){0,2}$/.test(value) || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export type TimeStyle = "instant" | "deadline" | "bid" | "day" | "month";

const STYLES: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  instant: {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  },
  deadline: {
    weekday: "short",
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  },
  bid: {
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
    timeZoneName: "short",
  },
  day: { month: "short", day: "numeric", year: "numeric" },
  month: { month: "long", year: "numeric" },
};

// Making an Intl formatter costs far more than using one (docs/decisions/1906): one per zone and
// style, made on first use.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string, style: TimeStyle | "parts") {
  const safeZone = isKnownZone(zone) ? zone : DEFAULT_TIME_ZONE;
  const key = `${safeZone}|${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(
      "en-US",
      style === "parts"
        ? {
            year: "numeric",
            month: "numeric",
            day: "numeric",
            hour: "numeric",
            minute: "numeric",
            second: "numeric",
            weekday: "short",
            hourCycle: "h23",
            timeZone: safeZone,
          }
        : { ...STYLES[style], timeZone: safeZone },
    );
    formats.set(key, format);
  }
  return format;
}

const checkedZones = new Map<string, boolean>();
function isKnownZone(zone: string) {
  let known = checkedZones.get(zone);
  if (known === undefined) {
    known = isTimeZone(zone);
    if (checkedZones.size < 500) checkedZones.set(zone, known);
  }
  return known;
}

const toDate = (at: Date | string | number) => (at instanceof Date ? at : new Date(at));

// The texts made, by zone, style and moment: a list page writes the same lots' times on every
// request, and formatting one costs several microseconds (docs/decisions/3411). At most 4,000,
// then the table starts over.
const texts = new Map<string, string>();

/** A moment in `zone` in one of the styles above (an unknown zone falls back to Central). */
export function formatTime(at: Date | string | number, zone: string, style: TimeStyle): string {
  const date = toDate(at);
  const ms = date.getTime();
  // an invalid date is refused by the formatter, as before
  if (Number.isNaN(ms)) return formatter(zone, style).format(date);
  const key = `${ms}|${style}|${zone}`;
  let text = texts.get(key);
  if (text === undefined) {
    text = formatter(zone, style).format(date);
    if (texts.size >= 4_000) texts.clear();
    texts.set(key, text);
  }
  return text;
}

/** "Nov 24, 2026, 3:42 PM CST": something that happened (or will) at one moment. */
export const formatInstant = (at: Date | string | number, zone: string) =>
  formatTime(at, zone, "instant");

/** "Mon, Nov 30, 2026, 5:00 PM CST": a cut-off such as a due date, the same text everywhere. */
export const formatDeadline = (at: Date | string | number, zone: string) =>
  formatTime(at, zone, "deadline");

/** "Nov 24, 3:42:15 PM CST": a bid's time in a lot's history. */
export const formatBidTime = (at: Date | string | number, zone: string) =>
  formatTime(at, zone, "bid");

/** "Nov 24, 2026": the calendar day a moment falls on in `zone` (never the UTC day). */
export const formatDay = (at: Date | string | number, zone: string) => formatTime(at, zone, "day");

/** "CST", "PDT", "UTC": the zone's short name at that moment. */
export function zoneAbbreviation(zone: string, at: Date | string | number = new Date()) {
  return (
    formatter(zone, "instant")
      .formatToParts(toDate(at))
      .find((part) => part.type === "timeZoneName")?.value ?? zone
  );
}

export type WallTime = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
};

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** What a wall clock in `zone` reads at `at`. */
export function zonedWallTime(at: Date | string | number, zone: string): WallTime {
  const parts = Object.fromEntries(
    formatter(zone, "parts")
      .formatToParts(toDate(at))
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday),
  };
}

/**
 * The instant a wall clock in `zone` reads the given date and time. In the hour skipped by
 * daylight saving it answers the instant an hour later; in the repeated hour, the first one.
 */
export function atWallTime(
  wall: { year: number; month: number; day: number; hour: number; minute: number },
  zone: string,
): Date {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const offsetAt = (ms: number) => {
    const w = zonedWallTime(ms, zone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - ms;
  };
  const readsWall = (ms: number) => {
    const w = zonedWallTime(ms, zone);
    return (
      w.year === wall.year &&
      w.month === wall.month &&
      w.day === wall.day &&
      w.hour === wall.hour &&
      w.minute === wall.minute
    );
  };
  // the offsets in force half a day before and after: the wall time is read with one of them
  const before = asUtc - offsetAt(asUtc - 12 * 60 * 60 * 1000);
  const after = asUtc - offsetAt(asUtc + 12 * 60 * 60 * 1000);
  const fits = [before, after].filter(readsWall).sort((x, y) => x - y);
  // a skipped wall time, read with the offset from before the change, lands an hour later
  return new Date(fits[0] ?? before);
}

/**
 * The end of a business day in `zone`: the day `from` falls on there, moved on `businessDays`
 * business days (Monday to Friday, US federal holidays as observed excepted: record 3210; a sale
 * on a weekend or a holiday counts from the next business day), at `closing` o'clock
 * ("hour:minute", 24-hour) on the wall clock there.
 */
export function endOfBusinessDay(
  from: Date,
  businessDays: number,
  zone: string,
  closing = { hour: 17, minute: 0 },
): Date {
  const start = zonedWallTime(from, zone);
  // walk calendar days at noon UTC, clear of any zone's date line
  const day = new Date(Date.UTC(start.year, start.month - 1, start.day, 12));
  let left = businessDays;
  while (left > 0) {
    day.setUTCDate(day.getUTCDate() + 1);
    const weekday = day.getUTCDay();
    const holiday = isUsFederalHoliday(
      day.getUTCFullYear(),
      day.getUTCMonth() + 1,
      day.getUTCDate(),
    );
    if (weekday !== 0 && weekday !== 6 && !holiday) left -= 1;
  }
  return atWallTime(
    {
      year: day.getUTCFullYear(),
      month: day.getUTCMonth() + 1,
      day: day.getUTCDate(),
      hour: closing.hour,
      minute: closing.minute,
    },
    zone,
  );
}
