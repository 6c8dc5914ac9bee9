import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { DEPOSIT_PRESETS } from "~/services/deposits/rules";
import { textInputProps } from "./input-props";
import { useDepositChecks } from "./validation";

/** The preset amounts and the custom amount: each posts `choose` and comes back at #payment. */
export function AmountSection({
  chosenAmount,
  lastResult,
}: {
  chosenAmount: string | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const checks = useDepositChecks("onInput");
  const [customForm, customFields] = useForm({
    id: "custom-amount",
    lastResult,
    ...checks.options,
  });

  return (
    <section aria-labelledby="amount-heading" className="mt-8">
      <h2 id="amount-heading" className="text-lg font-bold">
        Choose Deposit Amount
      </h2>
      <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Form method="post" action="/deposit" className="contents">
          <input type="hidden" name="intent" value="choose" />
          {DEPOSIT_PRESETS.map((preset) => (
            <button
              key={preset.amount}
              type="submit"
              name="amount"
              value={preset.amount}
              aria-pressed={chosenAmount === preset.amount}
              className={`rounded-xl border-2 p-4 text-left ${
                chosenAmount === preset.amount
                  ? "border-brand-700 bg-brand-50"
                  : "border-slate-200 bg-white hover:border-brand-600"
              }`}
            >
              <span className="block text-2xl font-bold">{preset.label}</span>
              <span className="text-sm text-slate-600">({preset.note})</span>
            </button>
          ))}
        </Form>
        <Form
          method="post"
          action="/deposit"
          {...getFormProps(customForm)}
          {...checks.onUse}
          className="rounded-xl border-2 border-slate-200 bg-white p-4"
        >
          <input type="hidden" name="intent" value="choose" />
          <label htmlFor={customFields.amount.id} className="block font-bold">
            Custom
          </label>
          <div className="mt-2 flex gap-2">
            <input
              {...textInputProps(customFields.amount)}
              inputMode="decimal"
              autoComplete="off"
              placeholder="400.00"
              className="w-full min-w-0 rounded-md border border-slate-300 px-2 py-1.5"
            />
            {/* Never greyed out: a press with a wrong amount says what is wrong under the field. */}
            <button
              type="submit"
              className="whitespace-nowrap rounded-md bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white disabled:opacity-50"
            >
              Set Amount
            </button>
          </div>
          {customFields.amount.errors ? (
            <p id={customFields.amount.errorId} role="alert" className="mt-2 text-sm text-red-700">
              Invalid Amount - {customFields.amount.errors[0]}
            </p>
          ) : (
            <p className="mt-2 text-xs text-slate-500">At least $400.00, up to two decimals.</p>
          )}
        </Form>
      </div>
    </section>
  );
}
