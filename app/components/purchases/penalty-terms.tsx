import { penalties, type PenaltyTerms as Terms } from "~/services/purchases/penalties";

/**
 * What paying late, not paying, and leaving the vehicle at the yard cost, in dollars, from the
 * terms the charges use (docs/decisions/2751). `only` narrows it (a paid invoice: storage).
 */
export function PenaltyTerms({
  terms,
  heading = "If you pay late or leave it at the yard",
  only,
}: {
  terms: Terms;
  heading?: string;
  only?: Array<"late_fee" | "default" | "storage">;
}) {
  const shown = penalties(terms).filter((p) => !only || only.includes(p.code));
  return (
    <div className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-950" data-testid="penalties">
      <p className="font-semibold">{heading}</p>
      {/* the rows' look is the list's class (app/tailwind.css), said once (record 3545) */}
      <dl className="penalty-terms mt-1 space-y-1">
        {shown.map((p) => (
          <div key={p.code}>
            <dt>{p.label}</dt>
            <dd data-testid={`penalty-${p.code}`}>{p.text}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
