// The dated exchange rates community prices are compared at (docs/decisions/2806): what is in
// force, a form for a new rate (or a correction of a date's rate), and the latest entries.
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FieldMessage } from "~/components/field-message";
import { replyFor } from "~/http/respond.server";
import { redirectWithToast } from "~/http/toast.server";
import { now } from "~/platform/clock.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { CONVERTED_CURRENCIES, formatRateDate, trimRate } from "~/services/listings/exchange-rates";
import {
  rateHistory,
  ratesInForce,
  setExchangeRate,
} from "~/services/listings/exchange-rates.server";
import { exchangeRateSchema } from "~/services/listings/schemas";
import { isUserError } from "~/utils/user-error";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Exchange rates · Admin · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [rates, history] = await Promise.all([ratesInForce(), rateHistory()]);
  return data(
    { rates, history, today: now().toISOString().slice(0, 10) },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await readForm(request), { schema: exchangeRateSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    await setExchangeRate(admin, submission.value);
  } catch (error) {
    if (!isUserError(error)) throw error;
    return data(replyFor(submission, error), { status: error.status });
  }
  const { currency, perUsd, asOf } = submission.value;
  return redirectWithToast("/admin/exchange-rates", {
    title: "Rate saved",
    description: `1 USD = ${trimRate(perUsd)} ${currency} as of ${formatRateDate(asOf)}.`,
    type: "success",
  });
}

const input =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm aria-[invalid=true]:border-red-500";

export default function AdminExchangeRates() {
  const { rates, history, today } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { currency: "MXN", asOf: today },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: exchangeRateSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-3xl px-3 py-8 sm:px-6">
      <p className="text-sm">
        <Link to="/admin" className="text-brand-700 underline">
          ← Admin
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold">Exchange rates</h1>
      <p className="mt-1 text-slate-600">
        Community listings priced in Canadian dollars or Mexican pesos are compared with a
        buyer&apos;s price range at these rates, and the date is shown beside every converted price.
        The newest rate dated today or earlier is in force; every change is audited.
      </p>

      <h2 className="mt-6 font-bold">In force</h2>
      <ul className="mt-2 grid gap-3 sm:grid-cols-2">
        {CONVERTED_CURRENCIES.map((currency) => (
          <li key={currency} className="rounded-lg border border-slate-200 bg-white p-4">
            <p className="text-lg font-bold">
              1 USD = {trimRate(rates.perUsd[currency])} {currency}
            </p>
            <p className="text-sm text-slate-600">As of {formatRateDate(rates.asOf[currency])}</p>
          </li>
        ))}
      </ul>

      <Form
        method="post"
        {...getFormProps(form)}
        className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
      >
        <h2 className="font-bold">Set a rate</h2>
        {form.errors?.length ? (
          <p id={form.errorId} role="alert" className="mt-2 text-sm text-red-700">
            {form.errors[0]}
          </p>
        ) : null}
        <div className="mt-2 grid gap-3 sm:grid-cols-3">
          <div>
            <label htmlFor={fields.currency.id} className="block text-sm font-semibold">
              Currency
            </label>
            <select {...getSelectProps(fields.currency)} className={input}>
              {CONVERTED_CURRENCIES.map((currency) => (
                <option key={currency} value={currency}>
                  {currency}
                </option>
              ))}
            </select>
            <FieldMessage id={fields.currency.errorId} errors={fields.currency.errors} />
          </div>
          <div>
            <label htmlFor={fields.perUsd.id} className="block text-sm font-semibold">
              Units for 1 USD
            </label>
            <input
              {...getInputProps(fields.perUsd, { type: "text" })}
              inputMode="decimal"
              placeholder="19.50"
              className={input}
            />
            <FieldMessage id={fields.perUsd.errorId} errors={fields.perUsd.errors} />
          </div>
          <div>
            <label htmlFor={fields.asOf.id} className="block text-sm font-semibold">
              As of (date)
            </label>
            <input
              {...getInputProps(fields.asOf, { type: "text" })}
              placeholder="2026-11-20"
              className={input}
            />
            <FieldMessage id={fields.asOf.errorId} errors={fields.asOf.errors} />
          </div>
        </div>
        <button
          type="submit"
          className="mt-2 rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          Save rate
        </button>
      </Form>

      <h2 className="mt-8 font-bold">Latest entries</h2>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200">
              <th scope="col" className="py-2 pr-3">
                As of
              </th>
              <th scope="col" className="py-2 pr-3">
                Rate
              </th>
              <th scope="col" className="py-2">
                Set by
              </th>
            </tr>
          </thead>
          <tbody>
            {history.map((row) => (
              <tr key={row.id} className="border-b border-slate-100">
                <td className="py-2 pr-3 whitespace-nowrap">{formatRateDate(row.asOf)}</td>
                <td className="py-2 pr-3 whitespace-nowrap">
                  1 USD = {trimRate(row.perUsd)} {row.currency}
                </td>
                <td className="py-2">
                  <div className="max-w-[12rem] truncate" title={row.setBy ?? undefined}>
                    {row.setBy ?? "Initial rate"}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
