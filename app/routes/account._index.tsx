// The account page: which e-mails BidYard sends (one preference per topic, the same ones each
// e-mail's one-click unsubscribe stops: docs/decisions/2754) and the time zone. A plain form post.
import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithToast } from "~/http/toast.server";
import { mailPreferences, setMailPreferences } from "~/platform/mail/preferences.server";
import {
  MONEY_MAIL_TOPICS,
  TOPIC_LABELS,
  TOPIC_NAMES,
  type MailTopic,
} from "~/platform/mail/topics";
import { requireUser } from "~/services/accounts/session.server";
import { mailPreferencesSchema } from "~/services/accounts/schemas";
import { TIME_ZONE_CHOICES } from "~/services/accounts/time-zones";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Your account · BidYard" }];

const GROUPS: Array<{ legend: string; topics: readonly MailTopic[] }> = [
  { legend: "Money and your lots", topics: MONEY_MAIL_TOPICS },
  { legend: "Alerts and messages", topics: ["alerts", "messages"] },
];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return {
    email: user.email,
    phone: user.phone,
    timeZone: user.timeZone,
    preferences: await mailPreferences(user.id),
  };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: mailPreferencesSchema });
  if (submission.status !== "success") {
    const errors = submission.error ?? {};
    const message = Object.values(errors).flat()[0] ?? "The form was incomplete. Please try again.";
    return data({ error: message }, { status: 400 });
  }
  await setMailPreferences(user.id, submission.value.topic);
  return redirectWithToast(
    "/account",
    {
      title: "E-mail preferences saved",
      description: "You still see every notice under Notifications.",
      type: "success",
    },
    { status: 303 },
  );
}

export default function AccountPage() {
  const { email, phone, timeZone, preferences } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const zone = TIME_ZONE_CHOICES.find((choice) => choice.zone === timeZone)?.label ?? timeZone;
  return (
    <div className="mx-auto max-w-2xl px-3 py-6 sm:px-6">
      <h1 className="text-2xl font-black">Your account</h1>
      <p className="mt-1 break-all text-slate-600">{email}</p>
      <p className="break-all text-slate-600" data-testid="account-phone">
        {phone ? `Phone: ${phone}` : "No phone number on file."}{" "}
        <Link to="/contact?topic=account" className="text-brand-700 underline">
          Ask us to change it
        </Link>
      </p>

      <section
        aria-labelledby="mail-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <h2 id="mail-heading" className="text-lg font-bold">
          E-mail
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Choose what we e-mail you. Every e-mail also has a one-click unsubscribe link for its
          kind. You still see everything under Notifications.
        </p>
        {answer?.error ? (
          <p role="alert" className="mt-3 rounded bg-red-50 p-2 text-sm text-red-800">
            {answer.error}
          </p>
        ) : null}
        <Form method="post" className="mt-3 space-y-4">
          <input type="hidden" name="intent" value="mail-preferences" />
          {GROUPS.map((group) => (
            <fieldset key={group.legend}>
              <legend className="font-semibold">{group.legend}</legend>
              <ul className="mt-2 space-y-2">
                {group.topics.map((topic) => (
                  <li key={topic} className="flex items-start gap-2">
                    <input
                      type="checkbox"
                      id={`topic-${topic}`}
                      name="topic"
                      value={topic}
                      defaultChecked={preferences[topic]}
                      aria-describedby={`topic-${topic}-about`}
                      className="mt-1 h-4 w-4 shrink-0"
                    />
                    <label htmlFor={`topic-${topic}`} className="text-sm">
                      <span className="font-semibold">{TOPIC_NAMES[topic]}</span>
                      <span id={`topic-${topic}-about`} className="block text-slate-600">
                        {TOPIC_LABELS[topic].replace(/^./, (c) => c.toUpperCase())}.
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          ))}
          <button
            type="submit"
            className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            Save e-mail preferences
          </button>
        </Form>
      </section>

      <section
        aria-labelledby="zone-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <h2 id="zone-heading" className="text-lg font-bold">
          Time zone
        </h2>
        <p className="mt-1 text-sm">
          {zone}.{" "}
          <Link to="/account/time-zone" className="font-semibold text-brand-700 underline">
            Change the time zone
          </Link>
        </p>
      </section>
    </div>
  );
}
