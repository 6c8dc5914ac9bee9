import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/error-page";
import { FieldMessage } from "~/components/field-message";
import { errorBoundaryHeaders, requireSameOrigin } from "~/http/http.server";
import { clientAddress, consumeRateLimit } from "~/platform/rate-limit.server";
import { getUser } from "~/services/accounts/session.server";
import { sendContactMessage } from "~/services/contact/contact.server";
import {
  CONTACT_TOPICS,
  CONTACT_TOPIC_LABELS,
  MAX_CONTACT_LENGTH,
  contactSchema,
} from "~/services/contact/schemas";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Contact us · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const url = new URL(request.url);
  const name = user ? [user.firstName, user.lastName].filter(Boolean).join(" ") : "";
  return {
    sent: url.searchParams.get("sent") === "1",
    topic: url.searchParams.get("topic") ?? "",
    defaults: { name, email: user?.email ?? "" },
  };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

// Anyone may write, signed in or not (a person locked out of their account most of all); the
// limit is per client address (docs/decisions/3301).
async function act({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const submission = parseWithZod(await readForm(request), { schema: contactSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await consumeRateLimit(request, "contact", clientAddress(request));
  const user = await getUser(request);
  await sendContactMessage(submission.value, user?.id ?? null);
  return redirect("/contact?sent=1", { headers: { "Cache-Control": "no-store" } });
}

const input = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-slate-900";

export default function ContactPage() {
  const { sent, defaults, topic } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: {
      ...defaults,
      topic: (CONTACT_TOPICS as readonly string[]).includes(topic) ? topic : "",
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="mx-auto max-w-2xl px-3 py-6 sm:px-6">
      <h1 className="text-2xl font-black">Contact us</h1>
      {sent ? (
        <section
          role="status"
          aria-labelledby="contact-sent"
          className="mt-4 rounded-lg border border-green-300 bg-green-50 p-4"
        >
          <h2 id="contact-sent" className="font-bold text-green-900">
            Thank you: your message reached our team
          </h2>
          <p className="mt-1 text-green-900">
            An admin reads every message and answers by e-mail, at the address you gave, within one
            business day (Monday to Friday). You do not need to send it again.
          </p>
          <p className="mt-2 text-sm">
            <Link to="/" className="text-brand-700 underline">
              Back to the dashboard
            </Link>{" "}
            ·{" "}
            <Link to="/contact" className="text-brand-700 underline">
              Write another message
            </Link>
          </p>
        </section>
      ) : (
        <>
          <p className="mt-2 text-slate-700">
            Write to the people who run BidYard: questions about your account, identity
            verification, a deposit or refund, an invoice, a pickup, or your data. An admin answers
            by e-mail within one business day. For a lot&apos;s condition, ask the seller or read
            the lot page; we cannot inspect vehicles.
          </p>
          <Form method="post" {...getFormProps(form)} className="mt-4 space-y-2">
            <div className="grid gap-x-3 sm:grid-cols-2">
              <div>
                <label htmlFor={fields.name.id} className="block text-sm font-semibold">
                  Your name
                </label>
                <input
                  {...getInputProps(fields.name, { type: "text" })}
                  key={fields.name.key}
                  autoComplete="name"
                  maxLength={100}
                  className={input}
                />
                <FieldMessage id={fields.name.errorId} errors={fields.name.errors} />
              </div>
              <div>
                <label htmlFor={fields.email.id} className="block text-sm font-semibold">
                  Your e-mail (we answer here)
                </label>
                <input
                  {...getInputProps(fields.email, { type: "email" })}
                  key={fields.email.key}
                  autoComplete="email"
                  maxLength={254}
                  className={input}
                />
                <FieldMessage id={fields.email.errorId} errors={fields.email.errors} />
              </div>
            </div>
            <div>
              <label htmlFor={fields.topic.id} className="block text-sm font-semibold">
                What is it about?
              </label>
              <select {...getSelectProps(fields.topic)} key={fields.topic.key} className={input}>
                <option value="">Choose one</option>
                {CONTACT_TOPICS.map((value) => (
                  <option key={value} value={value}>
                    {CONTACT_TOPIC_LABELS[value]}
                  </option>
                ))}
              </select>
              <FieldMessage id={fields.topic.errorId} errors={fields.topic.errors} />
            </div>
            <div>
              <label htmlFor={fields.message.id} className="block text-sm font-semibold">
                Your message
              </label>
              <textarea
                {...getTextareaProps(fields.message)}
                key={fields.message.key}
                rows={6}
                maxLength={MAX_CONTACT_LENGTH}
                className={input}
              />
              <FieldMessage
                id={fields.message.errorId}
                errors={fields.message.errors}
                hint="Name the lot number or invoice if it is about one. Never send a password or card number."
              />
            </div>
            <FieldMessage errors={form.errors} />
            <button
              type="submit"
              disabled={navigation.state === "submitting"}
              className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 focus-visible:focus-ring disabled:opacity-60"
            >
              {navigation.state === "submitting" ? "Sending..." : "Send message"}
            </button>
          </Form>
          <p className="mt-6 text-sm text-slate-600">
            How we use what you send: see the{" "}
            <Link to="/privacy" className="text-brand-700 underline">
              Privacy Policy
            </Link>
            .
          </p>
        </>
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
// A 429's Retry-After (the limit's real wait) survives this route's own error page: Remix passes
// a thrown answer's headers only to the boundary route's `headers` (docs/decisions/3521).
export const headers = errorBoundaryHeaders;
