// US federal holidays by rule (record 3210): the observed days against OPM's published tables,
// and the rules held for fifty years ahead.
import { describe, expect, it } from "vitest";
import { isUsFederalHoliday, usFederalHolidaysOf } from "~/utils/us-holidays";
import { endOfBusinessDay } from "~/utils/time";

// OPM's federal holiday tables (opm.gov, "Federal Holidays"), observed days, written by hand.
const OPM: Record<number, string[]> = {
  2026: [
    "2026-01-01",
    "2026-01-19",
    "2026-02-16",
    "2026-05-25",
    "2026-06-19",
    "2026-07-03",
    "2026-09-07",
    "2026-10-12",
    "2026-11-11",
    "2026-11-26",
    "2026-12-25",
  ],
  2027: [
    "2027-01-01",
    "2027-01-18",
    "2027-02-15",
    "2027-05-31",
    "2027-06-18",
    "2027-07-05",
    "2027-09-06",
    "2027-10-11",
    "2027-11-11",
    "2027-11-25",
    "2027-12-24",
  ],
  // New Year's Day 2028 is a Saturday: observed on Friday, December 31, 2027
  2028: [
    "2027-12-31",
    "2028-01-17",
    "2028-02-21",
    "2028-05-29",
    "2028-06-19",
    "2028-07-04",
    "2028-09-04",
    "2028-10-09",
    "2028-11-10",
    "2028-11-23",
    "2028-12-25",
  ],
  2029: [
    "2029-01-01",
    "2029-01-15",
    "2029-02-19",
    "2029-05-28",
    "2029-06-19",
    "2029-07-04",
    "2029-09-03",
    "2029-10-08",
    "2029-11-12",
    "2029-11-22",
    "2029-12-25",
  ],
  2030: [
    "2030-01-01",
    "2030-01-21",
    "2030-02-18",
    "2030-05-27",
    "2030-06-19",
    "2030-07-04",
    "2030-09-02",
    "2030-10-14",
    "2030-11-11",
    "2030-11-28",
    "2030-12-25",
  ],
};

const parts = (iso: string) => iso.split("-").map(Number) as [number, number, number];
const weekdayOf = (iso: string) => new Date(`${iso}T12:00:00Z`).getUTCDay();

describe("US federal holidays", () => {
  it("are OPM's observed days for 2026 to 2030", () => {
    for (const [year, days] of Object.entries(OPM)) {
      expect(usFederalHolidaysOf(Number(year)).map((h) => h.observed)).toEqual(days);
      for (const day of days) expect(isUsFederalHoliday(...parts(day)), day).toBe(true);
    }
    // the days around them are not
    for (const day of ["2026-11-27", "2026-12-24", "2026-07-04", "2027-12-25", "2028-01-01"])
      expect(isUsFederalHoliday(...parts(day)), day).toBe(false);
  });

  it("for fifty years ahead: eleven a year, each observed on a weekday, in its own rule's place", () => {
    for (let year = 2026; year < 2076; year++) {
      const holidays = usFederalHolidaysOf(year);
      expect(holidays).toHaveLength(11);
      const day = Object.fromEntries(holidays.map((h) => [h.name, h.observed]));
      for (const { observed } of holidays) {
        expect([1, 2, 3, 4, 5]).toContain(weekdayOf(observed));
        expect(isUsFederalHoliday(...parts(observed))).toBe(true);
      }
      // the Monday holidays: third Monday of Jan and Feb, last of May, first of Sep, second of Oct
      const mondayIn = (iso: string, month: number, from: number, to: number) => {
        const [y, m, d] = parts(iso);
        expect([y, m, weekdayOf(iso)]).toEqual([year, month, 1]);
        expect(d).toBeGreaterThanOrEqual(from);
        expect(d).toBeLessThanOrEqual(to);
      };
      mondayIn(day["Birthday of Martin Luther King, Jr."], 1, 15, 21);
      mondayIn(day["Washington's Birthday"], 2, 15, 21);
      mondayIn(day["Memorial Day"], 5, 25, 31);
      mondayIn(day["Labor Day"], 9, 1, 7);
      mondayIn(day["Columbus Day"], 10, 8, 14);
      const [, thanksMonth, thanksDay] = parts(day["Thanksgiving Day"]);
      expect([thanksMonth, weekdayOf(day["Thanksgiving Day"])]).toEqual([11, 4]);
      expect(thanksDay).toBeGreaterThanOrEqual(22);
      expect(thanksDay).toBeLessThanOrEqual(28);
      // fixed dates: on the day, or the Friday before / Monday after a weekend
      for (const [name, month, date] of [
        ["New Year's Day", 1, 1],
        ["Juneteenth National Independence Day", 6, 19],
        ["Independence Day", 7, 4],
        ["Veterans Day", 11, 11],
        ["Christmas Day", 12, 25],
      ] as const) {
        const legal = new Date(Date.UTC(year, month - 1, date));
        const shift = { 6: -1, 0: 1 }[legal.getUTCDay() as 0 | 6] ?? 0;
        legal.setUTCDate(legal.getUTCDate() + shift);
        expect(day[name], `${name} ${year}`).toBe(legal.toISOString().slice(0, 10));
      }
    }
  });

  it("are skipped by business days (a sale on one counts from the next business day)", () => {
    // Wednesday Nov 25, 2026 in Dallas + 1 business day: not Thanksgiving, Friday Nov 27
    expect(
      endOfBusinessDay(new Date("2026-11-25T18:00:00Z"), 1, "America/Chicago").toISOString(),
    ).toBe("2026-11-27T23:00:00.000Z");
    // sold on Thanksgiving itself: Friday is the first business day after it
    expect(
      endOfBusinessDay(new Date("2026-11-26T18:00:00Z"), 1, "America/Chicago").toISOString(),
    ).toBe("2026-11-27T23:00:00.000Z");
    // Friday Dec 24, 2027 is Christmas observed: Thursday's sale is due Monday Dec 27
    expect(
      endOfBusinessDay(new Date("2027-12-23T18:00:00Z"), 1, "America/New_York").toISOString(),
    ).toBe("2027-12-27T22:00:00.000Z");
    // Friday Dec 31, 2027 is New Year's Day 2028 observed: Thursday Dec 30 + 1 is Monday Jan 3
    expect(
      endOfBusinessDay(new Date("2027-12-30T18:00:00Z"), 1, "America/Los_Angeles").toISOString(),
    ).toBe("2028-01-04T01:00:00.000Z");
  });
});
