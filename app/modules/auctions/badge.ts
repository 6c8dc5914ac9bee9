export const ENDING_SOON_MS = 60 * 60 * 1000;

export type Badge = "LIVE" | "STARTING SOON" | "ENDING SOON" | "ENDED";

/** The badge from the server clock (DOMAIN.md), never from chance. */
export function lotBadge(
  lot: { status: string; startsAt: Date | string; endsAt: Date | string },
  at: Date,
): Badge {
  const t = at.getTime();
  const ends = new Date(lot.endsAt).getTime();
  if (lot.status !== "active" || t >= ends) return "ENDED";
  if (t < new Date(lot.startsAt).getTime()) return "STARTING SOON";
  if (ends - t <= ENDING_SOON_MS) return "ENDING SOON";
  return "LIVE";
}
