import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { requireAdmin } from "~/services/accounts/session.server";
import { FEE_SCHEDULES, SCHEDULE_LABELS } from "~/services/purchases/fees";
import {
  loadSchedules,
  loadTerms,
  replaceSchedule,
  updateTerms,
} from "~/services/purchases/schedules.server";
import { scheduleSchema, termsSchema } from "~/services/purchases/schemas";
import { redirectWithToast } from "~/http/toast.server";
import { fromCents } from "~/utils/money";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Fees and terms · Admin · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [schedules, terms] = await Promise.all([loadSchedules(), loadTerms()]);
  return data({ schedules, terms }, { headers: { "Cache-Control": "no-store" } });
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  if (form.get("intent") === "terms") {
    const parsed = parseWithZod(form, { schema: termsSchema });
    if (parsed.status !== "success") {
      return data(
        { error: Object.values(parsed.error ?? {}).flat()[0] ?? "Check the terms." },
        { status: 400 },
      );
    }
    const v = parsed.value;
    await updateTerms(admin, {
      dueBusinessDays: v.dueBusinessDays,
      lateFeeCents: v.lateFee,
      storageFreeDays: v.storageFreeDays,
      storagePerDayCents: v.storagePerDay,
      defaultGraceDays: v.defaultGraceDays,
      defaultFeeCents: v.defaultFee,
    });
    return redirectWithToast("/admin/fees", {
      title: "Terms saved",
      description: "New invoices use them.",
      type: "success",
    });
  }
  const parsed = scheduleSchema.safeParse({
    intent: form.get("intent"),
    schedule: form.get("schedule"),
    min: form.getAll("min").map(String),
    fee: form.getAll("fee").map(String),
    percent: form.getAll("percent").map(String),
  });
  if (!parsed.success) {
    return data({ error: parsed.error.issues[0]?.message ?? "Check the bands." }, { status: 400 });
  }
  await replaceSchedule(admin, parsed.data.schedule, parsed.data.bands);
  return redirectWithToast("/admin/fees", {
    title: "Schedule saved",
    description: `${SCHEDULE_LABELS[parsed.data.schedule]}: invoices written from now on use it.`,
    type: "success",
  });
}

const input = "w-24 rounded border border-slate-300 px-2 py-1 text-right";
/** A band's cell: the three columns share a 360 px screen, none cut off (record 3551). */
const cellInput = "w-full min-w-0 rounded border border-slate-300 px-2 py-1 text-right sm:w-24";

export default function AdminFees() {
  const { schedules, terms } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-5xl px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-bold">Fees and terms</h1>
      <p className="mt-1 text-slate-600">
        Changes apply to invoices written afterwards; every change is audited.
      </p>
      {actionData?.error ? (
        <p role="alert" className="mt-3 rounded bg-red-50 p-2 text-red-800">
          {actionData.error}
        </p>
      ) : null}
      <Form method="post" className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="font-bold">Payment terms</h2>
        <input type="hidden" name="intent" value="terms" />
        <div className="mt-2 grid gap-3 sm:grid-cols-3">
          {(
            [
              ["dueBusinessDays", "Due after (business days)", String(terms.dueBusinessDays)],
              ["lateFee", "Late fee ($)", fromCents(terms.lateFeeCents)],
              ["storageFreeDays", "Free storage days after payment", String(terms.storageFreeDays)],
              ["storagePerDay", "Storage per day ($)", fromCents(terms.storagePerDayCents)],
              ["defaultGraceDays", "Grace days before default", String(terms.defaultGraceDays)],
              ["defaultFee", "Default fee ($)", fromCents(terms.defaultFeeCents)],
            ] as const
          ).map(([name, label, value]) => (
            <label key={name} className="text-sm">
              <span className="block font-semibold">{label}</span>
              <input name={name} defaultValue={value} className={input} inputMode="decimal" />
            </label>
          ))}
        </div>
        <button
          type="submit"
          className="mt-3 rounded bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white"
        >
          Save terms
        </button>
      </Form>
      {FEE_SCHEDULES.map((name) => (
        <Form
          key={name}
          method="post"
          className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
        >
          <h2 className="font-bold">{SCHEDULE_LABELS[name]}</h2>
          <input type="hidden" name="intent" value="schedule" />
          <input type="hidden" name="schedule" value={name} />
          <p className="text-xs text-slate-500">
            Each row: from this sale price, this fee plus this percent of the price. Leave a row
            empty to drop it.
          </p>
          <div className="mt-2 overflow-x-auto">
            <table className="w-full table-fixed text-sm sm:w-auto sm:table-auto">
              <thead>
                <tr>
                  <th scope="col" className="px-1 text-left">
                    From ($)
                  </th>
                  <th scope="col" className="px-1 text-left">
                    Fee ($)
                  </th>
                  <th scope="col" className="px-1 text-left">
                    Percent
                  </th>
                </tr>
              </thead>
              <tbody>
                {[
                  ...schedules[name],
                  { minCents: -1, maxCents: null, feeCents: -1, percentBp: 0 },
                ].map((band, i) => (
                  <tr key={`${name}-${i}`}>
                    <td className="px-1 py-0.5">
                      <input
                        aria-label={`Row ${i + 1} from`}
                        name="min"
                        defaultValue={band.minCents < 0 ? "" : fromCents(band.minCents)}
                        className={cellInput}
                      />
                    </td>
                    <td className="px-1 py-0.5">
                      <input
                        aria-label={`Row ${i + 1} fee`}
                        name="fee"
                        defaultValue={band.feeCents < 0 ? "" : fromCents(band.feeCents)}
                        className={cellInput}
                      />
                    </td>
                    <td className="px-1 py-0.5">
                      <input
                        aria-label={`Row ${i + 1} percent`}
                        name="percent"
                        defaultValue={band.percentBp ? String(band.percentBp / 100) : ""}
                        className={cellInput}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <button
            type="submit"
            className="mt-3 rounded bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white"
          >
            Save {SCHEDULE_LABELS[name].toLowerCase()}
          </button>
        </Form>
      ))}
    </div>
  );
}
