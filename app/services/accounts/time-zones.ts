// Times in the viewer's zone (docs/decisions/1802): with JavaScript the browser's own zone, without
// it the zone saved on the account. Plain TypeScript for the settings form, the lot page and the
// server alike, and free of zod so every page can format times without loading it.
/** Most yards and bidders are in the US; Central is the auction houses' own clock. */
export const DEFAULT_TIME_ZONE = "America/Chicago";

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

export function isTimeZone(value: string) {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){0,2}$/.test(value) || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** "Nov 24, 3:42 PM CST": a moment in `zone`, with the zone shown. */
export function formatInZone(at: Date | string, zone: string) {
  return new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE,
    timeZoneName: "short",
  }).format(new Date(at));
}

/** "Nov 24, 2026": the day a moment falls on in `zone` (for due dates and the like). */
export function formatDayInZone(at: Date | string, zone: string) {
  return new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE,
  }).format(new Date(at));
}

/** The browser's zone, or null where it has none to tell (the server). */
export function browserTimeZone(): string | null {
  if (typeof window === "undefined") return null;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : null;
}
