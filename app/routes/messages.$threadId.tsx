import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/error-page";
import { errorBoundaryHeaders } from "~/http/http.server";
import { MessageForm, ReportMessageForm } from "~/components/messages/message-form";
import { redirectWithToast } from "~/http/toast.server";
import { requireUser } from "~/services/accounts/session.server";
import { MESSAGE_REPORTED, MESSAGE_SENT } from "~/services/messages/messages";
import { getThread, replyInThread, reportMessage } from "~/services/messages/messages.server";
import { messageSchema, reportSchema } from "~/services/messages/schemas";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { replyFor, throwAsPageError } from "~/http/respond.server";
import { isUserError } from "~/utils/user-error";
import { LocalTime } from "~/components/local-time";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.thread.listingTitle} · Messages · BidYard` : "Messages · BidYard" },
];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { thread: await getThread(user.id, params.threadId ?? "").catch(throwAsPageError) };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const threadId = params.threadId ?? "";
  // Someone outside the thread learns nothing, whatever they post.
  await getThread(user.id, threadId).catch(throwAsPageError);
  const form = await readForm(request);
  if (form.get("intent") === "report") {
    // The refusal stays with the message it is about, next to its reason field.
    const messageId = String(form.get("messageId") ?? "");
    const submission = parseWithZod(form, { schema: reportSchema });
    if (submission.status !== "success")
      return data({ report: { messageId, result: submission.reply() } }, { status: 400 });
    try {
      await reportMessage(user.id, threadId, submission.value.messageId, submission.value.reason);
    } catch (error) {
      if (!isUserError(error)) throw error;
      return data(
        { report: { messageId, result: replyFor(submission, error) } },
        { status: error.status },
      );
    }
    return redirectWithToast(`/messages/${threadId}`, MESSAGE_REPORTED);
  }
  const submission = parseWithZod(form, { schema: messageSchema });
  if (submission.status !== "success") return data({ reply: submission.reply() }, { status: 400 });
  await consumeRateLimit(request, "message", user.id);
  try {
    await replyInThread(user.id, threadId, submission.value.body);
  } catch (error) {
    if (!isUserError(error)) throw error;
    return data({ reply: replyFor(submission, error) }, { status: error.status });
  }
  return redirectWithToast(`/messages/${threadId}`, MESSAGE_SENT);
}

export default function ThreadPage() {
  const { thread } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-2xl px-3 py-6 sm:px-6">
      <p className="text-sm">
        <Link to="/messages" className="text-brand-700 underline">
          ← All messages
        </Link>
      </p>
      <h1 className="mt-2 wrap-anywhere text-2xl font-black">{thread.listingTitle}</h1>
      <p className="text-slate-600">
        {thread.otherRole}: {thread.otherName} ·{" "}
        {thread.serviceOrderId ? (
          <Link
            to={`/service-orders/${thread.serviceOrderId}`}
            className="text-brand-700 underline"
          >
            View the transport job
          </Link>
        ) : (
          <Link to={`/vehicle/${thread.listingId}`} className="text-brand-700 underline">
            View the vehicle
          </Link>
        )}
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
            <p className="whitespace-pre-wrap wrap-anywhere">{message.body}</p>
            {!message.mine ? (
              message.reported ? (
                <p className="mt-1 text-xs text-slate-600">Reported to the admins.</p>
              ) : (
                <ReportMessageForm
                  messageId={message.id}
                  lastResult={
                    actionData &&
                    "report" in actionData &&
                    actionData.report.messageId === message.id
                      ? actionData.report.result
                      : undefined
                  }
                />
              )
            ) : null}
          </li>
        ))}
      </ol>
      <MessageForm
        lastResult={actionData && "reply" in actionData ? actionData.reply : undefined}
        label="Your reply"
        submitLabel="Send reply"
        pending={navigation.state === "submitting"}
      />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
// A 429's Retry-After (the limit's real wait) survives this route's own error page: Remix passes
// a thrown answer's headers only to the boundary route's `headers` (docs/decisions/3521).
export const headers = errorBoundaryHeaders;
