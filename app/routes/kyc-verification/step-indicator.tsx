import type { KycState } from "~/services/kyc/documents";

const STEPS = ["Account Created", "Document Review", "Verified"];

type StepStatus = "complete" | "current" | "upcoming";

function stepStatus(state: KycState, index: number): StepStatus {
  if (index === 0 || state === "verified") return "complete";
  if (index === 1 && state === "pending") return "current";
  return "upcoming";
}

const CIRCLE: Record<StepStatus, string> = {
  complete: "bg-green-600 text-white",
  current: "bg-yellow-400 text-slate-900 ring-4 ring-yellow-100",
  upcoming: "bg-slate-200 text-slate-600",
};

const SR_SUFFIX: Record<StepStatus, string> = {
  complete: " (complete)",
  current: " (in progress)",
  upcoming: "",
};

/** Account created → document review → verified, with the person's step marked. */
export function StepIndicator({ state }: { state: KycState }) {
  return (
    <ol aria-label="Verification progress" className="flex items-center gap-2">
      {STEPS.map((label, index) => {
        const status = stepStatus(state, index);
        return (
          <li key={label} className="flex flex-1 items-center gap-2" data-step-status={status}>
            <span
              aria-hidden="true"
              className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-sm font-bold ${CIRCLE[status]}`}
            >
              {status === "complete" ? "✓" : index + 1}
            </span>
            <span className="text-xs font-medium sm:text-sm">
              {label}
              <span className="sr-only">{SR_SUFFIX[status]}</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
