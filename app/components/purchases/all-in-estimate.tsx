import { Form } from "@remix-run/react";
import type { AllInEstimate } from "~/services/purchases/estimate.server";
import { formatUsd } from "~/utils/money";
import { FieldMessage } from "~/components/field-message";
import { InvoiceLines } from "./invoice-lines";
import { PenaltyTerms } from "./penalty-terms";

const field = "mt-1 w-full rounded border border-slate-300 px-2 py-1.5";

/**
 * "If you win at $X": every fee line, transport to the buyer's city and the total; and the
 * reverse, the highest bid that fits what the buyer will pay all in. A GET form: works without
 * JavaScript and the answer is a link that can be shared.
 */
export function AllInEstimateCard({
  estimate,
  action,
}: {
  estimate: AllInEstimate;
  action: string;
}) {
  const errors = estimate.errors;
  const invalid = (name: keyof typeof errors) =>
    errors[name]
      ? { "aria-invalid": true as const, "aria-describedby": `all-in-${name}-error` }
      : {};
  return (
    <section
      id="all-in"
      aria-labelledby="all-in-heading"
      className="scroll-mt-20 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="all-in-heading" className="font-bold">
        All-in cost if you win
      </h2>
      <Form
        method="get"
        action={`${action}#all-in`}
        preventScrollReset
        className="mt-2 grid gap-2 sm:grid-cols-3"
      >
        <div className="text-sm">
          <label>
            <span className="font-semibold">If I win at ($)</span>
            <input
              name="bid"
              defaultValue={estimate.bid}
              inputMode="decimal"
              className={field}
              {...invalid("bid")}
            />
          </label>
          <FieldMessage id="all-in-bid-error" errors={errors.bid} />
        </div>
        <div className="text-sm">
          <label>
            <span className="font-semibold">Most I will pay all in ($)</span>
            <input
              name="budget"
              defaultValue={estimate.budget}
              inputMode="decimal"
              className={field}
              {...invalid("budget")}
            />
          </label>
          <FieldMessage id="all-in-budget-error" errors={errors.budget} />
        </div>
        <div className="text-sm">
          <label>
            <span className="font-semibold">Ship to (ZIP, or city, ST)</span>
            <input
              name="to"
              defaultValue={estimate.to}
              placeholder="75201 or Dallas, TX"
              autoComplete="postal-code"
              className={field}
              {...invalid("to")}
            />
          </label>
          <FieldMessage id="all-in-to-error" errors={errors.to} />
        </div>
        <button
          type="submit"
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold sm:col-span-3 sm:justify-self-start"
        >
          Work it out
        </button>
      </Form>
      <div className="mt-3" data-testid="all-in">
        <p className="text-sm text-slate-600">
          If you win at {formatUsd(estimate.bidCents, "cents")}:
        </p>
        <InvoiceLines
          lines={estimate.lines}
          totalCents={estimate.totalCents}
          caption="All-in cost"
          totalLabel="All in"
        />
        {estimate.transport ? (
          <p className="mt-1 text-xs text-slate-500">
            Transport: {estimate.transport.from} → {estimate.transport.to}, about{" "}
            {estimate.transport.miles} miles (the job board&apos;s quote).
          </p>
        ) : null}
      </div>
      {estimate.budgetCents !== null ? <BudgetAnswer estimate={estimate} /> : null}
      <PenaltyTerms terms={estimate.terms} heading="After you win: paying late and storage" />
    </section>
  );
}

/**
 * The reverse: the highest bid a budget allows, and whether this lot is still within it. A
 * budget whose highest bid is below the lot's minimum bid is already passed, and says so.
 */
function BudgetAnswer({ estimate }: { estimate: AllInEstimate }) {
  const budget = formatUsd(estimate.budgetCents!, "cents");
  const minimum = formatUsd(estimate.minBidCents, "cents");
  const passed = estimate.maxBidCents === null || estimate.maxBidCents < estimate.minBidCents;
  const answer = [
    estimate.maxBidCents === null
      ? `${budget} does not cover the fees of any bid.`
      : `To pay at most ${budget} all in, bid up to ${formatUsd(estimate.maxBidCents, "cents")}.`,
    passed ? `Your budget is already passed: the minimum bid on this lot is ${minimum}.` : "",
  ];
  return (
    <p
      className={`mt-3 rounded p-2 text-sm ${passed ? "bg-amber-50 text-amber-900" : "bg-slate-50"}`}
      data-testid="max-bid"
    >
      {answer.filter(Boolean).join(" ")}
    </p>
  );
}
