import { Form } from "@remix-run/react";
import type { SavedSearchScope } from "~/services/alerts/rules";

/**
 * "Save this search": a plain form post of the page's current query string to /saved-searches,
 * which saves it and comes back here with a toast (works without JavaScript).
 */
export function SaveSearchForm({
  scope,
  search,
  className = "",
}: {
  scope: SavedSearchScope;
  /** The page's query string, as in location.search. */
  search: string;
  className?: string;
}) {
  const params = new URLSearchParams(search);
  params.delete("cursor");
  const query = params.toString();
  const returnTo = `${scope === "auctions" ? "/auctions" : "/community-vehicles"}${query ? `?${query}` : ""}`;
  return (
    <Form
      method="post"
      action="/saved-searches"
      className={`flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm ${className}`}
    >
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="scope" value={scope} />
      <input type="hidden" name="query" value={query} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <span className="font-semibold">Save this search: get alerts for new matches</span>
      <label className="inline-flex items-center gap-2">
        <input type="checkbox" name="email" defaultChecked className="h-4 w-4" />
        Also by e-mail
      </label>
      <button
        type="submit"
        className="rounded-md border border-brand-700 px-3 py-1.5 font-semibold text-brand-700 hover:bg-brand-50 focus-visible:focus-ring"
      >
        Save and alert me
      </button>
    </Form>
  );
}
