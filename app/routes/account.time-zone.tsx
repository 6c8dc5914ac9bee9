// The account's time zone (docs/decisions/1802, 2701): the zone every page, e-mail and notice
// shows the account's times in, with or without JavaScript. A plain form post; with scripts the
// page also offers the device's own zone when it differs.
import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/services/accounts/session.server";
import { setTimeZone } from "~/services/accounts/time-zone.server";
import { timeZoneSchema } from "~/services/accounts/schemas";
import { browserTimeZone, TIME_ZONE_CHOICES, timeZoneLabel } from "~/services/accounts/time-zones";
import { formatInstant } from "~/utils/time";
import { useHydrated } from "~/utils/use-hydrated";
import { redirectWithToast } from "~/http/toast.server";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Time zone · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { timeZone: user.timeZone, now: new Date().toISOString() };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: timeZoneSchema });
  if (submission.status !== "success") {
    return data(
      { error: submission.error?.timeZone?.[0] ?? "Choose a time zone." },
      { status: 400 },
    );
  }
  await setTimeZone(user.id, submission.value.timeZone);
  return redirectWithToast("/account/time-zone", {
    title: "Time zone saved",
    description: `Times are now shown in ${timeZoneLabel(submission.value.timeZone)} time.`,
    type: "success",
  });
}

export default function TimeZonePage() {
  const { timeZone, now } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const known = TIME_ZONE_CHOICES.some((choice) => choice.zone === timeZone);
  const hydrated = useHydrated();
  const device = hydrated ? browserTimeZone() : null;
  return (
    <div className="mx-auto max-w-xl px-3 py-6 sm:px-6">
      <h1 className="text-2xl font-black">Time zone</h1>
      <p className="mt-2 text-slate-600">
        Every time on BidYard (lot ends, bids, due dates, e-mails and notices) is shown in this
        zone, with its name. Now: <span data-testid="zone-now">{formatInstant(now, timeZone)}</span>
        .
      </p>
      {device && device !== timeZone ? (
        <Form method="post" className="mt-3 rounded-md bg-sky-50 p-3 text-sm">
          <input type="hidden" name="timeZone" value={device} />
          This device is set to {timeZoneLabel(device)}.{" "}
          <button type="submit" className="font-semibold text-brand-700 underline">
            Use {timeZoneLabel(device)}
          </button>
        </Form>
      ) : null}
      <Form method="post" className="mt-4 space-y-3">
        <label htmlFor="timeZone" className="block font-semibold">
          Time zone
        </label>
        <select
          id="timeZone"
          name="timeZone"
          defaultValue={timeZone}
          aria-invalid={answer?.error ? true : undefined}
          aria-describedby={answer?.error ? "timeZone-error" : undefined}
          className="w-full rounded-md border border-slate-300 px-3 py-2"
        >
          {known ? null : <option value={timeZone}>{timeZone}</option>}
          {TIME_ZONE_CHOICES.map((choice) => (
            <option key={choice.zone} value={choice.zone}>
              {choice.label}
            </option>
          ))}
        </select>
        {answer?.error ? (
          <p id="timeZone-error" role="alert" className="text-sm text-red-700">
            {answer.error}
          </p>
        ) : null}
        <button
          type="submit"
          className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          Save time zone
        </button>
      </Form>
    </div>
  );
}
