// One-click unsubscribe (RFC 8058): the link in every e-mail. GET shows what it stops and a
// button (link scanners that open mail must not unsubscribe anyone); POST stops it, whether sent
// by that button or by the mail program's own one-click request. No sign-in needed: the token is
// signed (docs/decisions/2152).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/error-page";
import {
  isUnsubscribed,
  readUnsubscribeToken,
  resubscribe,
  unsubscribe,
} from "~/platform/mail/unsubscribe.server";
import { TOPIC_LABELS } from "~/platform/mail/topics";
import { throwAsPageError } from "~/http/respond.server";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [
  { title: "Unsubscribe · BidYard" },
  { name: "robots", content: "noindex" },
];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ params }: LoaderFunctionArgs) {
  try {
    const { userId, topic } = readUnsubscribeToken(params.token);
    // A link already used says so, rather than asking again (docs/decisions/2807).
    return { label: TOPIC_LABELS[topic], already: await isUnsubscribed(userId, topic) };
  } catch (error) {
    throwAsPageError(error);
  }
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request).catch(() => new FormData());
  try {
    if (form.get("intent") === "resubscribe") {
      const { topic } = await resubscribe(params.token);
      return data({ done: "resubscribed" as const, label: TOPIC_LABELS[topic] });
    }
    const { topic } = await unsubscribe(params.token);
    return data({ done: "unsubscribed" as const, label: TOPIC_LABELS[topic] });
  } catch (error) {
    throwAsPageError(error);
  }
}

export default function UnsubscribePage() {
  const { label, already } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const button =
    "mt-4 inline-flex rounded-md bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800 focus-visible:focus-ring";
  return (
    <section className="mx-auto max-w-xl px-4 py-12">
      {result?.done === "unsubscribed" || (already && !result) ? (
        <>
          <h1 className="text-2xl font-black">
            {result ? "You are unsubscribed" : "You are already unsubscribed"}
          </h1>
          <p className="mt-3 text-slate-700" role="status">
            {result
              ? `We will not e-mail you ${label} any more. You still see them in the app.`
              : `This link was used already: we do not e-mail you ${label}. Nothing more to do; you still see them in the app.`}
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="resubscribe" />
            <button type="submit" className={button}>
              Undo: e-mail me again
            </button>
          </Form>
        </>
      ) : (
        <>
          <h1 className="text-2xl font-black">Stop these e-mails?</h1>
          <p className="mt-3 text-slate-700" role={result ? "status" : undefined}>
            {result?.done === "resubscribed"
              ? `You will get ${label} by e-mail again.`
              : `This stops e-mails with ${label}. You still see them in the app.`}
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="unsubscribe" />
            <button type="submit" className={button}>
              Unsubscribe
            </button>
          </Form>
        </>
      )}
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
