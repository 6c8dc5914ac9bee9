const STYLES: Record<string, string> = {
  LIVE: "bg-emerald-700 text-white",
  "ENDING SOON": "bg-red-600 text-white",
  "STARTING SOON": "bg-brand-700 text-white",
  CLOSING: "bg-amber-700 text-white",
  ENDED: "bg-slate-500 text-white",
};

export function LotBadge({ badge }: { badge: string }) {
  return (
    <span
      className={`inline-flex items-center rounded px-2 py-0.5 text-xs font-bold tracking-wide ${STYLES[badge] ?? STYLES.ENDED}`}
    >
      {badge}
    </span>
  );
}
