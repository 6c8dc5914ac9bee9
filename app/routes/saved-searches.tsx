import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { safeRedirect } from "~/http/http.server";
import { redirectWithToast } from "~/http/toast.server";
import { requireUser } from "~/services/accounts/session.server";
import {
  SEARCH_ALREADY_SAVED,
  SEARCH_DELETED,
  SEARCH_EMAIL_ON,
  SEARCH_NOT_SAVED,
  SEARCH_SAVED,
  SEARCH_UPDATED,
} from "~/services/alerts/messages";
import { LocalTime } from "~/components/local-time";
import { SCOPE_LABELS, savedSearchHref } from "~/services/alerts/rules";
import {
  alertMailStoppedAt,
  listSavedSearches,
  saveSearch,
  updateSavedSearch,
} from "~/services/alerts/saved-searches.server";
import { saveSearchSchema, savedSearchActionSchema } from "~/services/alerts/schemas";
import { throwAsPageError } from "~/http/respond.server";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Saved searches · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [searches, mailStoppedAt] = await Promise.all([
    listSavedSearches(user.id),
    alertMailStoppedAt(user.id),
  ]);
  return { searches, mailStoppedAt };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  try {
    if (form.get("intent") === "save") {
      const submission = parseWithZod(form, { schema: saveSearchSchema });
      if (submission.status !== "success")
        return redirectWithToast(safeRedirect(form.get("returnTo"), "/saved-searches"), {
          ...SEARCH_NOT_SAVED,
          description:
            Object.values(submission.error ?? {}).flat()[0] ?? SEARCH_NOT_SAVED.description,
        });
      const { created } = await saveSearch(user.id, submission.value);
      return redirectWithToast(
        safeRedirect(form.get("returnTo"), "/saved-searches"),
        created ? SEARCH_SAVED : SEARCH_ALREADY_SAVED,
      );
    }
    const submission = parseWithZod(form, { schema: savedSearchActionSchema });
    if (submission.status !== "success")
      throw new Response("Choose a saved search and what to do with it.", { status: 400 });
    await updateSavedSearch(user.id, submission.value.id, submission.value.intent);
    return redirectWithToast(
      "/saved-searches",
      submission.value.intent === "delete"
        ? SEARCH_DELETED
        : submission.value.intent === "email-on"
          ? SEARCH_EMAIL_ON
          : SEARCH_UPDATED,
    );
  } catch (error) {
    throwAsPageError(error);
  }
}

export default function SavedSearchesPage() {
  const { searches, mailStoppedAt } = useLoaderData<typeof loader>();
  const small =
    "rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-50 focus-visible:focus-ring";
  return (
    <div className="mx-auto max-w-3xl px-3 py-6 sm:px-6">
      <h1 className="text-2xl font-black">Saved searches</h1>
      <p className="mt-1 text-slate-600">
        New lots and listings that match appear in your{" "}
        <Link to="/notifications" className="text-brand-700 underline">
          notifications
        </Link>{" "}
        and, if you like, by e-mail. Save a search from the filters on{" "}
        <Link to="/auctions" className="text-brand-700 underline">
          Live Auctions
        </Link>{" "}
        or{" "}
        <Link to="/community-vehicles" className="text-brand-700 underline">
          Community Vehicles
        </Link>
        .
      </p>
      {mailStoppedAt && searches.length > 0 ? (
        <p
          role="status"
          className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          You stopped alert e-mails with an unsubscribe link on <LocalTime at={mailStoppedAt} />, so
          none of these searches is e-mailed. New matches still appear in your notifications;
          &ldquo;E-mail me too&rdquo; turns e-mail back on for one search.
        </p>
      ) : null}
      {searches.length === 0 ? (
        <p className="mt-8 rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600">
          No saved searches yet.
        </p>
      ) : (
        <ul className="mt-6 space-y-3">
          {searches.map((search) => (
            <li
              key={search.id}
              className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
            >
              <p className="text-xs font-semibold uppercase text-slate-600">
                {SCOPE_LABELS[search.scope]}
              </p>
              <h2 className="wrap-anywhere text-lg font-bold">
                <Link to={savedSearchHref(search.scope, search.query)} className="hover:underline">
                  {search.label}
                </Link>
              </h2>
              <p className="text-sm text-slate-600">
                {search.matches} {search.matches === 1 ? "new match" : "new matches"} alerted so far
                · e-mail {search.email ? "on" : "off"}
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Form method="post">
                  <input type="hidden" name="id" value={search.id} />
                  <input
                    type="hidden"
                    name="intent"
                    value={search.email ? "email-off" : "email-on"}
                  />
                  <button type="submit" className={small}>
                    {search.email ? "Stop e-mails" : "E-mail me too"}
                  </button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="id" value={search.id} />
                  <input type="hidden" name="intent" value="delete" />
                  <button
                    type="submit"
                    className={small}
                    aria-label={`Delete saved search ${search.label}`}
                  >
                    Delete
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
