import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/error-page";
import { errorBoundaryHeaders } from "~/http/http.server";
import { MessageForm } from "~/components/messages/message-form";
import { redirectWithToast } from "~/http/toast.server";
import { requireUser } from "~/services/accounts/session.server";
import { MESSAGE_SENT, OWN_LISTING } from "~/services/messages/messages";
import { listingToMessage, messageSeller } from "~/services/messages/messages.server";
import { messageSchema } from "~/services/messages/schemas";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { throwAsPageError } from "~/http/respond.server";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Message the seller · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const listingId = new URL(request.url).searchParams.get("listing");
  const listing = await listingToMessage(user.id, listingId).catch(throwAsPageError);
  // An existing conversation about this listing continues where it is.
  if (listing.threadId) throw redirect(`/messages/${listing.threadId}`);
  return { listing };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const listingId = new URL(request.url).searchParams.get("listing") ?? "";
  const submission = parseWithZod(await readForm(request), { schema: messageSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await consumeRateLimit(request, "message", user.id);
  const threadId = await messageSeller(user.id, listingId, submission.value.body).catch(
    throwAsPageError,
  );
  return redirectWithToast(`/messages/${threadId}`, MESSAGE_SENT);
}

export default function NewMessagePage() {
  const { listing } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-2xl px-3 py-6 sm:px-6">
      <p className="text-sm">
        <Link to={`/vehicle/${listing.id}`} className="text-brand-700 underline">
          ← Back to the vehicle
        </Link>
      </p>
      <h1 className="mt-2 wrap-anywhere text-2xl font-black">Message the seller</h1>
      <p className="mt-1 wrap-anywhere text-slate-600">About: {listing.title}</p>
      {listing.own ? (
        <p className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
          {OWN_LISTING}{" "}
          <Link to="/messages" className="text-brand-700 underline">
            Open your messages
          </Link>
        </p>
      ) : (
        <MessageForm
          lastResult={lastResult}
          label="Your message"
          submitLabel="Send message"
          pending={navigation.state === "submitting"}
        />
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
// A 429's Retry-After (the limit's real wait) survives this route's own error page: Remix passes
// a thrown answer's headers only to the boundary route's `headers` (docs/decisions/3521).
export const headers = errorBoundaryHeaders;
