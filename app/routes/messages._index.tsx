import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/services/accounts/session.server";
import { listThreads } from "~/services/messages/messages.server";
import { guardLoader } from "~/http/route-guards.server";

export const meta: MetaFunction = () => [{ title: "Messages · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { threads: await listThreads(user.id) };
}

export default function MessagesPage() {
  const { threads } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-3 py-6 sm:px-6">
      <h1 className="text-2xl font-black">Messages</h1>
      <p className="mt-1 text-slate-600">
        Conversations with sellers and buyers of community vehicles. E-mail addresses stay private.
      </p>
      {threads.length === 0 ? (
        <p className="mt-8 rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600">
          No messages yet. Use “Message the seller” on a vehicle’s page to start one.
        </p>
      ) : (
        <ul className="mt-6 space-y-3">
          {threads.map((thread) => (
            <li key={thread.id}>
              <Link
                to={`/messages/${thread.id}`}
                className="block rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600"
              >
                <span className="block wrap-anywhere font-bold">{thread.listingTitle}</span>
                <span className="block text-sm text-slate-600">
                  {thread.otherRole}: {thread.otherName}
                </span>
                <span className="mt-1 block truncate text-sm text-slate-700">
                  {thread.lastMessage}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
