import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { refundReasons } from "~/services/deposits/rules";
import { formatUsd } from "~/utils/money";
import { FieldMessage } from "~/components/field-message";
import { textInputProps } from "./input-props";
import { useDepositChecks } from "./validation";

/**
 * What can go back now, why the rest of the balance cannot (held by bids, or never paid in
 * through the provider), and the refund form (only when there is something to refund).
 */
export function RefundSection({
  refund: { refundable, held, unbacked },
  lastResult,
  busy,
}: {
  refund: { refundable: string; held: string; unbacked: string };
  lastResult: SubmissionResult<string[]> | undefined;
  busy: boolean;
}) {
  const checks = useDepositChecks();
  const [refundForm, refundFields] = useForm({
    // A new balance gives a fresh form, so the suggested amount follows it.
    id: `refund-${refundable}`,
    lastResult,
    defaultValue: { refundAmount: refundable },
    ...checks.options,
  });

  return (
    <section aria-labelledby="refund-heading">
      <h2 id="refund-heading" className="text-lg font-bold">
        Request a Refund
      </h2>
      <p className="mt-2 text-sm text-slate-600" data-testid="refundable">
        Available to refund: <strong>{formatUsd(refundable)}</strong>. Refunds go back to the
        account that paid.
      </p>
      {refundReasons({ held, unbacked }).map((reason) => (
        <p key={reason} className="mt-1 text-sm text-slate-600" data-testid="refund-reason">
          {reason}
        </p>
      ))}
      {refundable === "0.00" && !lastResult ? (
        <p className="mt-3 rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-600">
          Nothing to refund right now.
        </p>
      ) : (
        <Form
          method="post"
          action="/deposit"
          {...getFormProps(refundForm)}
          {...checks.onUse}
          className="mt-3 rounded-xl border border-slate-200 bg-white p-4"
        >
          {/* The first press asks for a confirmation naming the amount and where it goes. */}
          <input type="hidden" name="intent" value="refund-review" />
          <label htmlFor={refundFields.refundAmount.id} className="block text-sm font-semibold">
            Refund amount (USD)
          </label>
          <div className="mt-2 flex gap-2">
            <input
              {...textInputProps(refundFields.refundAmount)}
              inputMode="decimal"
              autoComplete="off"
              className="w-full min-w-0 rounded-md border border-slate-300 px-2 py-1.5"
            />
            <button
              type="submit"
              disabled={busy}
              className="whitespace-nowrap rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-50 disabled:opacity-60"
            >
              Review refund
            </button>
          </div>
          <FieldMessage
            id={refundFields.refundAmount.errorId}
            errors={refundFields.refundAmount.errors}
          />
        </Form>
      )}
    </section>
  );
}
