// The alert worker: tells people about new lots and listings that match their saved searches,
// and about watched lots that end soon, in the app and by e-mail. Each alert happens once: a
// primary key on what was alerted, inserted in the same transaction as the notification and the
// queued mail (docs/decisions/2153-saved-search-alerts.md).
import { formatInstant } from "~/utils/time";
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { whereFor } from "~/services/auctions/lots.server";
import { ENDING_SOON_MS } from "~/services/auctions/rules";
import { filterClause } from "~/services/listings/search.server";
import { ratesInForce } from "~/services/listings/exchange-rates.server";
import { now } from "~/platform/clock.server";
import { env } from "~/platform/env.server";
import { queueMail } from "~/platform/mail/outbox.server";
import { notify } from "~/platform/notifications.server";
import { isUserError } from "~/utils/user-error";
import { savedSearchHref, type SavedSearchScope } from "./rules";
import { readSavedQuery } from "./saved-searches.server";

/** New matches taken per search and tick; more wait for the next tick. */
const MATCHES_PER_TICK = 25;
/** Saved searches looked at per tick, those checked longest ago (or never) first. */
const SEARCHES_PER_TICK = 500;
/** Watcher and lot pairs told "ending soon" per tick; the rest wait for the next tick. */
const ENDING_SOON_PER_TICK = 500;

type SearchRow = {
  id: string;
  user_id: string;
  scope: SavedSearchScope;
  query: string;
  label: string;
  email: boolean;
  after_id: string;
};
type Item = { id: string; title: string };

const appUrl = (path: string) => `${new URL(env().APP_URL).origin}${path}`;

async function newItems(search: SearchRow, transaction: Transaction): Promise<Item[]> {
  const filters = readSavedQuery(search.scope, search.query);
  if (filters.auctions) {
    const where = whereFor(filters.auctions);
    return sequelize.query<Item>(
      `SELECT l.id::text AS id, concat_ws(' ', l.year, l.make, l.model) AS title
         FROM lots l WHERE ${where.sql} AND l.id > :savedSearchAfterId
        ORDER BY l.id LIMIT ${MATCHES_PER_TICK}`,
      {
        replacements: { ...where.replacements, savedSearchAfterId: search.after_id },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
  }
  const bind: unknown[] = [];
  const where = filterClause(filters.community!, bind, await ratesInForce());
  bind.push(search.after_id, search.user_id);
  return sequelize.query<Item>(
    `SELECT l.id::text AS id, l.title FROM listings l
      WHERE ${where.join(" AND ")} AND l.id > $${bind.length - 1}::bigint
        AND l.user_id <> $${bind.length}::uuid
      ORDER BY l.id LIMIT ${MATCHES_PER_TICK}`,
    { bind, type: QueryTypes.SELECT, transaction },
  );
}

function itemPath(scope: SavedSearchScope, id: string) {
  return scope === "auctions" ? `/auctions/${id}` : `/vehicle/${id}`;
}

/**
 * One search: its new matches alerted once, and the search marked checked. `seenCheckedAt` is
 * its checked_at when this tick listed it. Returns how many matches were new.
 */
async function matchSearch(searchId: string, seenCheckedAt: string | null) {
  return sequelize.transaction(async (transaction) => {
    // Another worker holding this search is already alerting it, and one that checked it since
    // this tick listed it has done this tick's work: leave it.
    const [search] = await sequelize.query<SearchRow>(
      `SELECT id::text AS id, user_id, scope, query, label, email, after_id::text AS after_id
         FROM saved_searches
        WHERE id = :searchId AND checked_at IS NOT DISTINCT FROM CAST(:seenCheckedAt AS timestamptz)
          FOR UPDATE SKIP LOCKED`,
      { replacements: { searchId, seenCheckedAt }, type: QueryTypes.SELECT, transaction },
    );
    if (!search) return 0;
    // Checked, whatever it finds: the next tick starts with the searches checked longest ago.
    await sequelize.query("UPDATE saved_searches SET checked_at = now() WHERE id = :searchId", {
      replacements: { searchId },
      transaction,
    });
    let items: Item[];
    try {
      items = await newItems(search, transaction);
    } catch (error) {
      // A filter that no longer reads (the page's rules changed) matches nothing.
      if (isUserError(error)) return 0;
      throw error;
    }
    if (items.length === 0) return 0;
    const inserted = await sequelize.query<{ item_id: string }>(
      `INSERT INTO saved_search_matches (saved_search_id, item_id)
       SELECT :searchId, unnest(ARRAY[:ids]::bigint[])
       ON CONFLICT DO NOTHING RETURNING item_id::text AS item_id`,
      {
        replacements: { searchId, ids: items.map((item) => item.id) },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    const fresh = new Set(inserted.map((row) => row.item_id));
    const alerted = items.filter((item) => fresh.has(item.id));
    for (const item of alerted) {
      await notify(
        search.user_id,
        {
          kind: "saved_search_match",
          title: `New match: ${item.title}`.slice(0, 200),
          body: `It matches your saved search “${search.label}”.`.slice(0, 2000),
          link: itemPath(search.scope, item.id),
        },
        transaction,
      );
    }
    if (alerted.length > 0 && search.email) {
      const lastId = alerted[alerted.length - 1].id;
      await queueMail(
        {
          userId: search.user_id,
          topic: "alerts",
          subject:
            alerted.length === 1
              ? `New match for “${search.label}”: ${alerted[0].title}`
              : `${alerted.length} new matches for “${search.label}”`,
          content: {
            paragraphs: [`New for your saved search “${search.label}”:`],
            // Each match is a link to its own page (docs/decisions/2807).
            links: alerted.map((item) => ({
              label: item.title,
              url: appUrl(itemPath(search.scope, item.id)),
            })),
            action: {
              label: "See all matches",
              url: appUrl(savedSearchHref(search.scope, search.query)),
            },
          },
          dedupeKey: `saved-search:${search.id}:${lastId}`,
        },
        transaction,
      );
    }
    await sequelize.query(
      `UPDATE saved_searches SET after_id = greatest(after_id, :lastId), updated_at = now()
        WHERE id = :searchId`,
      { replacements: { searchId, lastId: items[items.length - 1].id }, transaction },
    );
    return alerted.length;
  });
}

/**
 * Alerts the new matches of the `batchSize` saved searches checked longest ago (never-checked
 * first). Each check moves the search to the back, so every search comes round in turn however
 * many there are. Returns the number of alerts.
 */
export async function matchSavedSearches(options: { batchSize?: number } = {}) {
  const searches = await sequelize.query<{ id: string; checked_at: string | null }>(
    `SELECT id::text AS id, checked_at::text AS checked_at FROM saved_searches
      ORDER BY checked_at NULLS FIRST, id LIMIT :limit`,
    { replacements: { limit: options.batchSize ?? SEARCHES_PER_TICK }, type: QueryTypes.SELECT },
  );
  let alerts = 0;
  for (const search of searches) alerts += await matchSearch(search.id, search.checked_at);
  return alerts;
}

type EndingRow = {
  user_id: string;
  lot_id: string;
  title: string;
  ends_at: Date;
  time_zone: string;
};

/**
 * Watched lots entering their last hour: each watcher is told once per lot, up to `limit` pairs
 * per tick, soonest-ending first. Pairs already told are left out before the limit, so they never
 * fill a tick's share and crowd out the rest.
 */
export async function alertWatchedLotsEndingSoon(options: { limit?: number } = {}) {
  const at = now();
  return sequelize.transaction(async (transaction) => {
    const rows = await sequelize.query<EndingRow>(
      `WITH due AS (
         INSERT INTO watch_alerts (user_id, lot_id, kind)
         SELECT w.user_id, w.lot_id, 'ending_soon'
           FROM watchlist w JOIN lots l ON l.id = w.lot_id
          WHERE l.status = 'active' AND l.ends_at > :at AND l.ends_at <= :soon
            AND NOT EXISTS (SELECT 1 FROM watch_alerts a
                             WHERE a.user_id = w.user_id AND a.lot_id = w.lot_id
                               AND a.kind = 'ending_soon')
          ORDER BY l.ends_at, w.lot_id, w.user_id
          LIMIT :limit
         ON CONFLICT DO NOTHING
         RETURNING user_id, lot_id)
       SELECT d.user_id, d.lot_id::text AS lot_id, l.ends_at, u.time_zone,
              concat_ws(' ', l.year, l.make, l.model) AS title
         FROM due d JOIN lots l ON l.id = d.lot_id JOIN users u ON u.id = d.user_id`,
      {
        replacements: {
          at,
          soon: new Date(at.getTime() + ENDING_SOON_MS),
          limit: options.limit ?? ENDING_SOON_PER_TICK,
        },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    for (const row of rows) {
      const minutes = Math.max(1, Math.round((row.ends_at.getTime() - at.getTime()) / 60_000));
      const path = `/auctions/${row.lot_id}`;
      // the instant in the watcher's own zone: a message may be read after "in N minutes" passed
      const when = `Bidding ends ${formatInstant(row.ends_at, row.time_zone)} (in about ${minutes} minute${minutes === 1 ? "" : "s"}).`;
      await notify(
        row.user_id,
        { kind: "lot_ending_soon", title: `Ending soon: ${row.title}`, body: when, link: path },
        transaction,
      );
      await queueMail(
        {
          userId: row.user_id,
          topic: "alerts",
          subject: `Ending soon: ${row.title}`,
          content: {
            paragraphs: [`A lot you watch, ${row.title}, is in its last hour.`, when],
            action: { label: "Open the lot", url: appUrl(path) },
          },
          dedupeKey: `ending-soon:${row.user_id}:${row.lot_id}`,
        },
        transaction,
      );
    }
    return rows.length;
  });
}
