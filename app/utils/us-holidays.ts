/**
 * The US federal holidays (5 U.S.C. 6103), computed by rule for any year, on the days they are
 * observed: a holiday on a Saturday is observed the Friday before, on a Sunday the Monday after
 * (so New Year's Day on a Saturday is observed on December 31 of the year before). Yards are
 * closed on them, so payment due dates skip them (record 3210). Inauguration Day, a holiday only
 * around Washington, is not counted.
 */

type Day = { year: number; month: number; day: number };

const key = (year: number, month: number, day: number) =>
  `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/** The `nth` (1-based) `weekday` (0 = Sunday) of a month; a negative `nth` counts from the end. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): Day {
  if (nth > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return { year, month, day: 1 + ((weekday - first + 7) % 7) + (nth - 1) * 7 };
  }
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = new Date(Date.UTC(year, month - 1, lastDay)).getUTCDay();
  return { year, month, day: lastDay - ((last - weekday + 7) % 7) + (nth + 1) * 7 };
}

/** A fixed-date holiday moved off a weekend: Saturday to Friday, Sunday to Monday. */
function observed(year: number, month: number, day: number): Day {
  const date = new Date(Date.UTC(year, month - 1, day));
  const weekday = date.getUTCDay();
  if (weekday === 6) date.setUTCDate(date.getUTCDate() - 1);
  if (weekday === 0) date.setUTCDate(date.getUTCDate() + 1);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The holidays whose legal date is in `year`, with their names, on their observed days. */
export function usFederalHolidaysOf(year: number): Array<{ name: string; observed: string }> {
  const list: Array<[string, Day]> = [
    ["New Year's Day", observed(year, 1, 1)],
    ["Birthday of Martin Luther King, Jr.", nthWeekday(year, 1, 1, 3)],
    ["Washington's Birthday", nthWeekday(year, 2, 1, 3)],
    ["Memorial Day", nthWeekday(year, 5, 1, -1)],
    ...(year >= 2021
      ? [["Juneteenth National Independence Day", observed(year, 6, 19)] as [string, Day]]
      : []),
    ["Independence Day", observed(year, 7, 4)],
    ["Labor Day", nthWeekday(year, 9, 1, 1)],
    ["Columbus Day", nthWeekday(year, 10, 1, 2)],
    ["Veterans Day", observed(year, 11, 11)],
    ["Thanksgiving Day", nthWeekday(year, 11, 4, 4)],
    ["Christmas Day", observed(year, 12, 25)],
  ];
  return list.map(([name, d]) => ({ name, observed: key(d.year, d.month, d.day) }));
}

const byYear = new Map<number, Set<string>>();

/** True when a calendar day (month 1–12) is a US federal holiday as observed. */
export function isUsFederalHoliday(year: number, month: number, day: number): boolean {
  let days = byYear.get(year);
  if (!days) {
    // a day of `year` may be the observed day of next year's New Year's Day (December 31)
    days = new Set(
      [...usFederalHolidaysOf(year), ...usFederalHolidaysOf(year + 1)]
        .map((h) => h.observed)
        .filter((observedDay) => observedDay.startsWith(`${year}-`)),
    );
    byYear.set(year, days);
  }
  return days.has(key(year, month, day));
}
