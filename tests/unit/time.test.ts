// The one time helper (docs/decisions/2701): every style names the viewer's zone and prints the
// calendar day as it falls there, never the UTC one; zone arithmetic is right across daylight
// saving; a due date is the close of the yard's business day.
import { describe, expect, it } from "vitest";
import { yardTimeZone } from "~/services/auctions/yard-zones";
import {
  atWallTime,
  endOfBusinessDay,
  formatBidTime,
  formatDay,
  formatDeadline,
  formatInstant,
  formatTime,
  zoneAbbreviation,
  zonedWallTime,
} from "~/utils/time";

// 05:00 UTC on Oct 2 is still Oct 1 in the Pacific and Hawaii zones
const AT = "2026-10-02T05:00:00Z";

describe("formatting in the viewer's zone", () => {
  it("names the zone and prints that zone's calendar day", () => {
    expect(formatInstant(AT, "America/Los_Angeles")).toBe("Oct 1, 2026, 10:00 PM PDT");
    expect(formatInstant(AT, "Pacific/Honolulu")).toBe("Oct 1, 2026, 7:00 PM HST");
    expect(formatInstant(AT, "Asia/Tokyo")).toBe("Oct 2, 2026, 2:00 PM GMT+9");
    expect(formatDeadline(AT, "America/New_York")).toBe("Fri, Oct 2, 2026, 1:00 AM EDT");
    expect(formatDeadline(AT, "America/Chicago")).toBe("Fri, Oct 2, 2026, 12:00 AM CDT");
    expect(formatDeadline(AT, "America/Denver")).toBe("Thu, Oct 1, 2026, 11:00 PM MDT");
    expect(formatBidTime("2026-11-24T21:42:15Z", "America/Chicago")).toBe("Nov 24, 3:42:15 PM CST");
    expect(formatDay(AT, "America/Los_Angeles")).toBe("Oct 1, 2026");
    expect(formatDay(AT, "UTC")).toBe("Oct 2, 2026");
    expect(formatTime(AT, "America/Denver", "month")).toBe("October 2026");
  });

  it("accepts a Date, an ISO string or a number alike, and falls back to Central", () => {
    const expected = formatInstant(AT, "America/Chicago");
    expect(formatInstant(new Date(AT), "America/Chicago")).toBe(expected);
    expect(formatInstant(Date.parse(AT), "America/Chicago")).toBe(expected);
    expect(formatInstant(AT, "Mars/Olympus")).toBe(expected);
  });

  it("gives the zone's short name at a moment", () => {
    expect(zoneAbbreviation("America/Chicago", "2026-01-10T12:00:00Z")).toBe("CST");
    expect(zoneAbbreviation("America/Chicago", "2026-07-10T12:00:00Z")).toBe("CDT");
  });
});

describe("zone arithmetic", () => {
  it("reads a wall clock and finds the instant it reads a time, across daylight saving", () => {
    expect(zonedWallTime(AT, "America/Los_Angeles")).toEqual({
      year: 2026,
      month: 10,
      day: 1,
      hour: 22,
      minute: 0,
      second: 0,
      weekday: 4,
    });
    const wall = { year: 2026, month: 3, day: 8, hour: 17, minute: 0 };
    // the day daylight saving starts: 5 PM CDT
    expect(atWallTime(wall, "America/Chicago").toISOString()).toBe("2026-03-08T22:00:00.000Z");
    // the day before: 5 PM CST
    expect(atWallTime({ ...wall, day: 7 }, "America/Chicago").toISOString()).toBe(
      "2026-03-07T23:00:00.000Z",
    );
    // 2:30 AM does not exist that morning: an hour later
    expect(atWallTime({ ...wall, hour: 2, minute: 30 }, "America/Chicago").toISOString()).toBe(
      "2026-03-08T08:30:00.000Z",
    );
    // 1:30 AM happens twice on Nov 1: the first one (CDT)
    expect(
      atWallTime(
        { year: 2026, month: 11, day: 1, hour: 1, minute: 30 },
        "America/Chicago",
      ).toISOString(),
    ).toBe("2026-11-01T06:30:00.000Z");
  });

  it("ends a business day on the yard's clock, skipping weekends from the yard's own day", () => {
    // Friday Nov 20, 3 PM in Dallas + 3 business days = Wednesday Nov 25, 5 PM CST
    expect(
      endOfBusinessDay(new Date("2026-11-20T21:00:00Z"), 3, "America/Chicago").toISOString(),
    ).toBe("2026-11-25T23:00:00.000Z");
    // Friday 11 PM in Miami is already Saturday in UTC: still counted from Friday
    expect(
      endOfBusinessDay(new Date("2026-11-21T04:00:00Z"), 1, "America/New_York").toISOString(),
    ).toBe("2026-11-23T22:00:00.000Z");
    // a Saturday sale counts from Monday
    expect(
      endOfBusinessDay(new Date("2026-11-21T18:00:00Z"), 1, "America/Chicago").toISOString(),
    ).toBe("2026-11-23T23:00:00.000Z");
  });

  it("knows a yard's zone from its state", () => {
    expect(yardTimeZone("TX")).toBe("America/Chicago");
    expect(yardTimeZone("ca")).toBe("America/Los_Angeles");
    expect(yardTimeZone("AZ")).toBe("America/Phoenix");
    expect(yardTimeZone("ON")).toBe("America/Toronto");
    expect(yardTimeZone(null)).toBe("America/Chicago");
    expect(yardTimeZone("ZZ")).toBe("America/Chicago");
  });

  it("gives the same text for a moment again (kept), each zone and style its own, and refuses an invalid date", () => {
    const first = formatTime(AT, "America/Los_Angeles", "instant");
    expect(formatTime(new Date(AT), "America/Los_Angeles", "instant")).toBe(first);
    expect(formatTime(Date.parse(AT), "America/Los_Angeles", "instant")).toBe(
      "Oct 1, 2026, 10:00 PM PDT",
    );
    expect(formatTime(AT, "Pacific/Honolulu", "instant")).toBe("Oct 1, 2026, 7:00 PM HST");
    expect(formatTime(AT, "America/Los_Angeles", "day")).toBe("Oct 1, 2026");
    // past the table's 4,000 texts it starts over and still answers right
    for (let i = 0; i < 4_100; i += 1) formatTime(Date.parse(AT) + i * 60_000, "UTC", "day");
    expect(formatTime(AT, "America/Los_Angeles", "instant")).toBe(first);
    expect(() => formatTime("not a date", "UTC", "instant")).toThrow(RangeError);
  });
});
