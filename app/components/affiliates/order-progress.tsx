// Where a transport job stands, as the buyer reads it: open, claimed, in progress, delivered.
// Used on the buyer's order page and on the purchase page (status from listOrdersForLot).

export type OrderProgressStatus = "open" | "claimed" | "in_progress" | "completed";

export const ORDER_PROGRESS_STEPS: ReadonlyArray<{ status: OrderProgressStatus; label: string }> = [
  { status: "open", label: "Open" },
  { status: "claimed", label: "Claimed" },
  { status: "in_progress", label: "In progress" },
  { status: "completed", label: "Delivered" },
];

/** The step's label for a status ("completed" reads "Delivered" to the buyer). */
export function orderProgressLabel(status: OrderProgressStatus) {
  return ORDER_PROGRESS_STEPS.find((step) => step.status === status)?.label ?? status;
}

export function OrderProgress({
  status,
  label = "Transport progress",
}: {
  status: OrderProgressStatus;
  /** The list's accessible name, when a page shows more than one. */
  label?: string;
}) {
  const current = ORDER_PROGRESS_STEPS.findIndex((step) => step.status === status);
  return (
    <div>
      <p className="sr-only" aria-live="polite">
        {label}: {orderProgressLabel(status)}
      </p>
      <ol aria-label={label} className="grid grid-cols-4 gap-1 text-center text-xs sm:text-sm">
        {ORDER_PROGRESS_STEPS.map((step, index) => {
          const done = index <= current;
          return (
            <li
              key={step.status}
              aria-current={index === current ? "step" : undefined}
              className="flex flex-col items-center gap-1"
            >
              <span
                aria-hidden="true"
                className={`h-2 w-full rounded-full ${done ? "bg-brand-600" : "bg-slate-200"}`}
              />
              <span
                className={
                  index === current
                    ? "font-bold text-slate-900"
                    : done
                      ? "text-slate-700"
                      : "text-slate-500"
                }
              >
                {step.label}
                {index < current ? <span className="sr-only"> (done)</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
