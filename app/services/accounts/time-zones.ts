// The account's time zone setting (docs/decisions/1802, 2701): the zones the settings form
// offers. Formatting lives in the one time helper, ~/utils/time.
import { isTimeZone } from "~/utils/time";

export { DEFAULT_TIME_ZONE, isTimeZone } from "~/utils/time";

/** The zones the settings form offers (any valid IANA zone is accepted). */
export const TIME_ZONE_CHOICES = [
  { zone: "America/New_York", label: "Eastern (New York)" },
  { zone: "America/Chicago", label: "Central (Chicago)" },
  { zone: "America/Denver", label: "Mountain (Denver)" },
  { zone: "America/Phoenix", label: "Arizona (Phoenix)" },
  { zone: "America/Los_Angeles", label: "Pacific (Los Angeles)" },
  { zone: "America/Anchorage", label: "Alaska (Anchorage)" },
  { zone: "Pacific/Honolulu", label: "Hawaii (Honolulu)" },
  { zone: "UTC", label: "UTC" },
] as const;

/** "Central (Chicago)" for a zone the form offers, else the zone's own name. */
export function timeZoneLabel(zone: string) {
  return TIME_ZONE_CHOICES.find((choice) => choice.zone === zone)?.label ?? zone;
}

/** The browser's zone, or null where it has none to tell (the server): only ever SUGGESTED. */
export function browserTimeZone(): string | null {
  if (typeof window === "undefined") return null;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : null;
}
