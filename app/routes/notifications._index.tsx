import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import {
  listNotifications,
  markNotificationsRead,
  unreadNotificationCount,
} from "~/platform/notifications.server";
import { requireUser } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { LocalTime } from "~/components/local-time";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Notifications · BidYard" }];

const PAGE = 20;

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const before = new URL(request.url).searchParams.get("before");
  const validBefore = before && /^\d{1,18}$/.test(before) ? before : undefined;
  const [notes, unread] = await Promise.all([
    listNotifications(user.id, { before: validBefore, limit: PAGE + 1 }),
    unreadNotificationCount(user.id),
  ]);
  const page = notes.slice(0, PAGE);
  return {
    unread,
    notifications: page.map((n) => ({
      id: String(n.id),
      kind: n.kind,
      title: n.title,
      body: n.body,
      link: n.link,
      read: n.readAt !== null,
      createdAt: n.createdAt.toISOString(),
    })),
    nextBefore: notes.length > PAGE ? String(page[page.length - 1].id) : null,
  };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readForm(request);
  const id = formData.get("id");
  const ids = typeof id === "string" && /^\d{1,18}$/.test(id) ? [id] : undefined;
  const count = await markNotificationsRead(user.id, ids);
  return redirectWithToast("/notifications", {
    title: "Notifications updated",
    description:
      count === 1 ? "1 notification marked as read." : `${count} notifications marked as read.`,
    type: "success",
  });
}

export default function NotificationsPage() {
  const { notifications, unread, nextBefore } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-3 py-6 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-black">Notifications</h1>
        {unread > 0 ? (
          <Form method="post">
            <button
              type="submit"
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold"
            >
              Mark all as read ({unread})
            </button>
          </Form>
        ) : null}
      </div>
      {notifications.length === 0 ? (
        <p className="mt-6 text-slate-600">You have no notifications yet.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {notifications.map((note) => (
            <li key={note.id} className={`flex gap-3 p-4 ${note.read ? "" : "bg-brand-50"}`}>
              <div className="flex-1">
                <p className="font-semibold">
                  {note.read ? null : <span className="sr-only">Unread: </span>}
                  {note.link ? (
                    <Link to={note.link} className="hover:underline">
                      {note.title}
                    </Link>
                  ) : (
                    note.title
                  )}
                </p>
                {note.body ? <p className="text-sm text-slate-700">{note.body}</p> : null}
                <p className="text-xs text-slate-600">
                  <LocalTime at={note.createdAt} />
                </p>
              </div>
              {note.read ? null : (
                <Form method="post">
                  <input type="hidden" name="id" value={note.id} />
                  <button type="submit" className="text-sm font-semibold text-brand-700">
                    Mark read
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      {nextBefore ? (
        <p className="mt-4 text-center">
          <Link to={`/notifications?before=${nextBefore}`} className="font-semibold text-brand-700">
            Older notifications
          </Link>
        </p>
      ) : null}
    </div>
  );
}
