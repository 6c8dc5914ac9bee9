// Saved searches: the numbers and words the browser and the server share.
export const SAVED_SEARCH_SCOPES = ["auctions", "community"] as const;
export type SavedSearchScope = (typeof SAVED_SEARCH_SCOPES)[number];

/** Saved searches one person may keep. */
export const MAX_SAVED_SEARCHES = 20;

/** The page each scope's filters belong to. */
export const SCOPE_PATHS: Record<SavedSearchScope, string> = {
  auctions: "/auctions",
  community: "/community-vehicles",
};

export const SCOPE_LABELS: Record<SavedSearchScope, string> = {
  auctions: "Live auctions",
  community: "Community vehicles",
};

/** Where a saved search's results are. */
export function savedSearchHref(scope: SavedSearchScope, query: string) {
  return query ? `${SCOPE_PATHS[scope]}?${query}` : SCOPE_PATHS[scope];
}
