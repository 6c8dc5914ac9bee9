import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/error-page";
import { MessageForm } from "~/components/messages/message-form";
import { redirectWithToast } from "~/http/toast.server";
import { requireUser } from "~/services/accounts/session.server";
import { MESSAGE_REPORTED, MESSAGE_SENT } from "~/services/messages/messages";
import { getThread, replyInThread, reportMessage } from "~/services/messages/messages.server";
import { messageSchema, reportSchema } from "~/services/messages/schemas";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { throwAsPageError } from "~/http/respond.server";
import { LocalTime } from "~/components/local-time";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.thread.listingTitle} · Messages · BidYard` : "Messages · BidYard" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { thread: await getThread(user.id, params.threadId ?? "").catch(throwAsPageError) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const threadId = params.threadId ?? "";
  // Someone outside the thread learns nothing, whatever they post.
  await getThread(user.id, threadId).catch(throwAsPageError);
  const form = await request.formData();
  if (form.get("intent") === "report") {
    const submission = parseWithZod(form, { schema: reportSchema });
    if (submission.status !== "success")
      throw new Response("Say which message is wrong and why.", { status: 400 });
    await reportMessage(
      user.id,
      threadId,
      submission.value.messageId,
      submission.value.reason,
    ).catch(throwAsPageError);
    return redirectWithToast(`/messages/${threadId}`, MESSAGE_REPORTED);
  }
  const submission = parseWithZod(form, { schema: messageSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await consumeRateLimit(request, "message", user.id);
  await replyInThread(user.id, threadId, submission.value.body).catch(throwAsPageError);
  return redirectWithToast(`/messages/${threadId}`, MESSAGE_SENT);
}

export default function ThreadPage() {
  const { thread } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-2xl px-3 py-6 sm:px-6">
      <p className="text-sm">
        <Link to="/messages" className="text-brand-700 underline">
          ← All messages
        </Link>
      </p>
      <h1 className="mt-2 break-words text-2xl font-black">{thread.listingTitle}</h1>
      <p className="text-slate-600">
        {thread.role === "seller" ? "Buyer" : "Seller"}: {thread.otherName} ·{" "}
        <Link to={`/vehicle/${thread.listingId}`} className="text-brand-700 underline">
          View the vehicle
        </Link>
      </p>
      <ol className="mt-6 space-y-3" aria-label="Messages">
        {thread.messages.map((message) => (
          <li
            key={message.id}
            className={`rounded-lg p-3 ${message.mine ? "ml-6 bg-brand-50" : "mr-6 border border-slate-200 bg-white"}`}
          >
            <p className="text-xs font-semibold text-slate-600">
              {message.mine ? "You" : thread.otherName} · <LocalTime at={message.createdAt} />
            </p>
            <p className="whitespace-pre-wrap break-words">{message.body}</p>
            {!message.mine ? (
              message.reported ? (
                <p className="mt-1 text-xs text-slate-600">Reported to the admins.</p>
              ) : (
                <details className="mt-1 text-sm">
                  <summary className="cursor-pointer text-slate-600">Report this message</summary>
                  <Form method="post" className="mt-2">
                    <input type="hidden" name="intent" value="report" />
                    <input type="hidden" name="messageId" value={message.id} />
                    <label htmlFor={`reason-${message.id}`} className="block font-semibold">
                      What is wrong?
                    </label>
                    <input
                      id={`reason-${message.id}`}
                      name="reason"
                      className="mt-1 w-full rounded-md border border-slate-300 p-2"
                    />
                    <button
                      type="submit"
                      className="mt-2 rounded-md border border-red-700 px-3 py-1.5 font-semibold text-red-700 focus-visible:focus-ring"
                    >
                      Report to admins
                    </button>
                  </Form>
                </details>
              )
            ) : null}
          </li>
        ))}
      </ol>
      <MessageForm
        lastResult={lastResult}
        label="Your reply"
        submitLabel="Send reply"
        pending={navigation.state === "submitting"}
      />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
