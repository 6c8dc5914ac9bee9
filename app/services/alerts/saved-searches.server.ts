// Saved searches: a person keeps an /auctions or /community-vehicles filter and is told about
// new matches (./matching.server). docs/decisions/2153-saved-search-alerts.md.
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { parseAuctionQuery } from "~/services/auctions/lots.server";
import { parseListingFilters } from "~/services/listings/search.server";
import { UserError } from "~/utils/user-error";
import { MAX_SAVED_SEARCHES, SCOPE_LABELS, type SavedSearchScope } from "./rules";

export class SavedSearchError extends UserError {}

/** Only the filters that narrow a search, in a fixed order: the same search saves once. */
function canonical(values: Record<string, unknown>) {
  const params = new URLSearchParams();
  for (const key of Object.keys(values).sort()) {
    const value = values[key];
    if (value === undefined || value === null || value === "") continue;
    params.set(key, String(value));
  }
  return params;
}

/** The search's filters checked by its page's own rules; a 400 when they are not valid. */
export function readSavedQuery(scope: SavedSearchScope, query: string) {
  const params = new URLSearchParams(query);
  if (scope === "auctions") {
    const parsed = parseAuctionQuery(params);
    if (!parsed) throw new SavedSearchError("Those filters are not valid.", { status: 400 });
    const { cursor: _cursor, status: _status, ...filters } = parsed;
    return { auctions: filters, params: canonical(filters) };
  }
  params.delete("cursor");
  const parsed = parseListingFilters(params);
  if (!parsed.ok) throw new SavedSearchError("Those filters are not valid.", { status: 400 });
  return { community: parsed.filters, params: canonical(parsed.filters) };
}

const LABEL_ORDER = [
  "search",
  "auctionHouse",
  "make",
  "model",
  "year",
  "yearMin",
  "yearMax",
  "priceMin",
  "priceMax",
  "damageType",
  "titleType",
  "runsDrives",
  "condition",
  "bodyType",
  "location",
  "city",
  "state",
  "country",
];

/** "$15000", or "15000 MXN" for a range in another currency. */
function amountIn(value: string, currency: string | null) {
  return currency && currency !== "USD" ? `${value} ${currency}` : `$${value}`;
}

/** "Ford · F-150 · from 2018 · TX", or "All live auctions" for an empty filter. */
export function describeSearch(scope: SavedSearchScope, params: URLSearchParams) {
  const parts: string[] = [];
  for (const key of LABEL_ORDER) {
    const value = params.get(key);
    if (!value) continue;
    if (key === "search") parts.push(`“${value}”`);
    else if (key === "yearMin") parts.push(`from ${value}`);
    else if (key === "yearMax") parts.push(`to ${value}`);
    else if (key === "priceMin") parts.push(`from ${amountIn(value, params.get("currency"))}`);
    else if (key === "priceMax") parts.push(`up to ${amountIn(value, params.get("currency"))}`);
    else if (key === "runsDrives") parts.push(value === "yes" ? "runs and drives" : "non-runner");
    else parts.push(value.replace(/_/g, " "));
  }
  return (parts.length ? parts.join(" · ") : `All ${SCOPE_LABELS[scope].toLowerCase()}`).slice(
    0,
    200,
  );
}

/**
 * Saves the search (once: saving it again changes nothing). Only what is listed after this
 * moment counts as new, so saving does not alert about what the person is already looking at.
 */
export async function saveSearch(
  userId: string,
  input: { scope: SavedSearchScope; query: string; email: boolean },
) {
  const { params } = readSavedQuery(input.scope, input.query);
  const query = params.toString();
  const table = input.scope === "auctions" ? "lots" : "listings";
  return sequelize.transaction(async (transaction) => {
    // The person's row lock makes the cap hold under concurrent saves.
    await sequelize.query("SELECT 1 FROM users WHERE id = :userId FOR UPDATE", {
      replacements: { userId },
      transaction,
    });
    const [existing] = await sequelize.query<{ id: string }>(
      "SELECT id FROM saved_searches WHERE user_id = :userId AND scope = :scope AND query = :query",
      { replacements: { userId, scope: input.scope, query }, type: QueryTypes.SELECT, transaction },
    );
    if (existing) return { id: String(existing.id), created: false };
    const [{ count }] = await sequelize.query<{ count: string }>(
      "SELECT count(*) FROM saved_searches WHERE user_id = :userId",
      { replacements: { userId }, type: QueryTypes.SELECT, transaction },
    );
    if (Number(count) >= MAX_SAVED_SEARCHES)
      throw new SavedSearchError(
        `You can keep ${MAX_SAVED_SEARCHES} saved searches. Delete one to save another.`,
        { status: 409 },
      );
    const [row] = await sequelize.query<{ id: string }>(
      `INSERT INTO saved_searches (user_id, scope, query, label, email, after_id)
       VALUES (:userId, :scope, :query, :label, :email,
               (SELECT coalesce(max(id), 0) FROM ${table}))
       RETURNING id`,
      {
        replacements: {
          userId,
          scope: input.scope,
          query,
          label: describeSearch(input.scope, params),
          email: input.email,
        },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    return { id: String(row.id), created: true };
  });
}

export type SavedSearchView = {
  id: string;
  scope: SavedSearchScope;
  query: string;
  label: string;
  email: boolean;
  matches: number;
  createdAt: string;
};

/**
 * The person's saved searches. `email` is whether alerts for it are really mailed: off when the
 * person stopped alert e-mails with an unsubscribe link, whatever the search's own switch says
 * (docs/decisions/2807).
 */
export async function listSavedSearches(userId: string): Promise<SavedSearchView[]> {
  const rows = await sequelize.query<Omit<SavedSearchView, "createdAt"> & { createdAt: Date }>(
    `SELECT s.id::text AS id, s.scope, s.query, s.label,
            s.email AND NOT EXISTS (SELECT 1 FROM mail_unsubscribes u
                                     WHERE u.user_id = s.user_id AND u.topic = 'alerts') AS email,
            s.created_at AS "createdAt",
            (SELECT count(*)::int FROM saved_search_matches m WHERE m.saved_search_id = s.id)
              AS matches
       FROM saved_searches s WHERE s.user_id = :userId ORDER BY s.id DESC`,
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** When the person stopped alert e-mails with an unsubscribe link, or null. */
export async function alertMailStoppedAt(userId: string): Promise<string | null> {
  const [row] = await sequelize.query<{ created_at: Date }>(
    "SELECT created_at FROM mail_unsubscribes WHERE user_id = :userId AND topic = 'alerts'",
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  return row ? row.created_at.toISOString() : null;
}

/** Deletes or changes one of the person's own saved searches; someone else's is a 404. */
export async function updateSavedSearch(
  userId: string,
  id: string,
  change: "delete" | "email-on" | "email-off",
) {
  const replacements = { userId, id, email: change === "email-on" };
  await sequelize.transaction(async (transaction) => {
    const [, affected] =
      change === "delete"
        ? await sequelize.query("DELETE FROM saved_searches WHERE id = :id AND user_id = :userId", {
            replacements,
            transaction,
          })
        : await sequelize.query(
            `UPDATE saved_searches SET email = :email, updated_at = now()
              WHERE id = :id AND user_id = :userId`,
            { replacements, transaction },
          );
    const count =
      typeof affected === "number" ? affected : (affected as { rowCount?: number }).rowCount;
    if (!count) throw new SavedSearchError("That saved search does not exist.", { status: 404 });
    if (change !== "email-on") return;
    // Asking for this search's e-mail after an unsubscribe undoes the unsubscribe for this search
    // only: the others, which the unsubscribe showed as off, stay off (docs/decisions/2807).
    const [, lifted] = await sequelize.query(
      "DELETE FROM mail_unsubscribes WHERE user_id = :userId AND topic = 'alerts'",
      { replacements, transaction },
    );
    const liftedCount =
      typeof lifted === "number" ? lifted : (lifted as { rowCount?: number }).rowCount;
    if (liftedCount)
      await sequelize.query(
        `UPDATE saved_searches SET email = false, updated_at = now()
          WHERE user_id = :userId AND id <> :id AND email`,
        { replacements, transaction },
      );
  });
}
