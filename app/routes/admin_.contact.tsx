import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminQueueAction, AdminQueuePage } from "~/components/admin/queue-page";
import { redirectWithToast } from "~/http/toast.server";
import { throwAsPageError } from "~/http/respond.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { listOpenContactMessages, markContactAnswered } from "~/services/contact/contact.server";
import { CONTACT_ANSWERED } from "~/services/contact/messages";
import { answerContactSchema } from "~/services/contact/schemas";
import { LocalTime } from "~/components/local-time";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Contact messages · Admin · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { messages: await listOpenContactMessages() };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await readForm(request), { schema: answerContactSchema });
  if (submission.status !== "success") throw new Response("Choose a message.", { status: 400 });
  await markContactAnswered(admin.id, submission.value.messageId).catch(throwAsPageError);
  return redirectWithToast("/admin/contact", CONTACT_ANSWERED);
}

/** The admins' inbox of Contact-page messages, oldest first (docs/decisions/3301). */
export default function ContactInboxPage() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <AdminQueuePage
      title="Contact messages"
      intro="Answer each by e-mail (every admin also gets it by e-mail), then mark it answered."
      empty="No unanswered messages."
      items={messages}
      testId="contact-message"
    >
      {(message) => (
        <>
          <h2 className="wrap-anywhere font-bold">{message.topicLabel}</h2>
          <p className="wrap-anywhere text-sm text-slate-600">
            From {message.name} ·{" "}
            <a href={`mailto:${message.email}`} className="text-brand-700 underline">
              {message.email}
            </a>{" "}
            · {message.signedIn ? "signed in" : "not signed in"} ·{" "}
            <LocalTime at={message.createdAt} />
          </p>
          <p className="mt-2 whitespace-pre-wrap wrap-anywhere">{message.body}</p>
          <AdminQueueAction
            name="messageId"
            value={message.id}
            label="Mark answered"
            className="mt-3"
          />
        </>
      )}
    </AdminQueuePage>
  );
}
