const STYLES: Record<string, string> = {
  LIVE: "bg-emerald-700 text-white",
  // the hour's ENDING SOON lots in amber; red only for the last ten minutes (record 3553)
  "ENDING SOON": "bg-amber-300 text-slate-900",
  "STARTING SOON": "bg-brand-700 text-white",
  CLOSING: "bg-amber-700 text-white",
  ENDED: "bg-slate-500 text-white",
};
const URGENT = "bg-red-600 text-white";

export function LotBadge({ badge, urgent = false }: { badge: string; urgent?: boolean }) {
  const red = urgent && badge === "ENDING SOON";
  return (
    <span
      data-urgent={red ? "true" : undefined}
      className={`inline-flex items-center rounded px-2 py-0.5 text-xs font-bold tracking-wide ${red ? URGENT : (STYLES[badge] ?? STYLES.ENDED)}`}
    >
      {badge}
    </span>
  );
}
