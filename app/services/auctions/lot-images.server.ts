// Lot pictures from the feed (docs/decisions/2105-lot-pictures.md). The import records the URLs a
// feed gives (recordFeedPictures); the fetch_lot_pictures job and `npm run import:lots` download them
// (fetchLotPictures): claimed a few at a time with FOR UPDATE SKIP LOCKED, fetched over http(s)
// only under a time limit and a 10 MB cap, checked by content (JPEG, PNG or WebP, nothing active
// inside), stored with a 480 px WebP thumbnail through the storage adapter and served by
// /lot-pictures/{id}. A failure is tried again later, a few times, then left failed: the lot
// keeps showing the drawing of its body style and colour (app/services/auctions/pictures.ts).
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { activeContentIn } from "~/platform/file-safety.server";
import {
  fetchRemote,
  privateAddressesAllowed,
  RemoteFetchError,
} from "~/platform/remote-fetch.server";
import { newObjectKey, storage } from "~/platform/storage/index.server";
import {
  detectImageType,
  IMAGE_CONTENT_TYPES,
  IMAGE_TYPE_SNIFF_BYTES,
  MAX_IMAGE_MEGAPIXELS,
} from "~/utils/file-type";
import { LOT_PICTURE_PATH } from "./pictures";
import { loadSharp } from "~/platform/sharp.server";
import { IMAGE_INPUT, imageProblemOf } from "~/platform/image-decode.server";

export const LOT_PICTURE_LIMITS = {
  /** The largest picture (or list of pictures) downloaded. */
  maxBytes: 10_485_760,
  timeoutMs: 15_000,
  /** Tries before a picture is left failed: now, +1 min, +4 min, +16 min. */
  maxAttempts: 4,
  /** Pictures taken from one lot's list of pictures. */
  perLot: 12,
  thumbWidth: 480,
  /** A claimed picture is ours this long; past it another worker may take it again. */
  claimMs: 2 * 60_000,
};

/** The wait before try number `attempts + 1`: 1 min, 4 min, 16 min … capped at 6 h. */
export function pictureRetryDelayMs(attempts: number) {
  return Math.min(60_000 * 4 ** Math.max(0, attempts - 1), 6 * 60 * 60_000);
}

// ---------------------------------------------------------------------------------------------
// Recording what the feed names (called by the import; never fetches)

export type FeedPictures = { imageUrl: string | null; thumbnailUrl: string | null };

/**
 * A feed cell as a URL to record, or null when it is empty or too long. Copart prints some
 * addresses without their scheme ("cs.copart.com/v1/…_thb.jpg"); those are https. Any other
 * scheme is kept as written: the fetcher refuses it and the row shows why.
 */
export function feedPictureUrl(cell: string | null | undefined): string | null {
  const text = (cell ?? "").trim();
  if (!text || text.length > 2000) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return text;
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\//i.test(text)) return `https://${text}`;
  return null;
}

type RecordRow = { lot_number: string; source: "image_url" | "image_thumbnail"; url: string };

/**
 * Records the pictures a batch of imported lots names: a URL not seen before for a lot becomes a
 * pending picture. A changed URL replaces the lot's pictures from that column only while the lot
 * is open with no bids (the rule the lot's own fields follow); a cell left empty keeps what the
 * lot has. Returns how many URLs were recorded.
 */
export async function recordFeedPictures(
  house: string,
  lots: Array<{ lotNumber: string; pictures: FeedPictures }>,
): Promise<number> {
  const rows: RecordRow[] = [];
  for (const { lotNumber, pictures } of lots) {
    if (pictures.imageUrl)
      rows.push({ lot_number: lotNumber, source: "image_url", url: pictures.imageUrl });
    if (pictures.thumbnailUrl)
      rows.push({ lot_number: lotNumber, source: "image_thumbnail", url: pictures.thumbnailUrl });
  }
  if (rows.length === 0) return 0;
  const removedKeys: string[] = [];
  const recorded = await sequelize.transaction(async (transaction) => {
    const wanted = await sequelize.query<{
      lot_id: string;
      source: string;
      url: string;
      open: boolean;
      current_url: string | null;
    }>(
      `SELECT l.id::text AS lot_id, f.source, f.url,
              (l.status = 'active' AND l.bid_count = 0) AS open, i.source_url AS current_url
         FROM jsonb_to_recordset(:rows::jsonb) AS f(lot_number text, source text, url text)
         JOIN lots l ON l.auction_house = :house AND l.lot_number = f.lot_number
         LEFT JOIN lot_images i ON i.lot_id = l.id AND i.source = f.source AND i.position = 0`,
      { replacements: { rows: JSON.stringify(rows), house }, type: QueryTypes.SELECT, transaction },
    );
    const replace = wanted.filter(
      (w) => w.current_url !== null && w.current_url !== w.url && w.open,
    );
    const insert = wanted.filter((w) => w.current_url === null || replace.includes(w));
    if (replace.length > 0) {
      // the column's row and, for "Image URL", the pictures its list named
      const removed = await sequelize.query<{
        lot_id: string;
        storage_key: string | null;
        thumb_key: string | null;
      }>(
        `DELETE FROM lot_images i
          USING jsonb_to_recordset(:pairs::jsonb) AS p(lot_id bigint, source text)
          WHERE i.lot_id = p.lot_id
            AND (i.source = p.source OR (p.source = 'image_url' AND i.source = 'catalogue'))
         RETURNING i.lot_id::text, i.storage_key, i.thumb_key`,
        {
          replacements: {
            pairs: JSON.stringify(replace.map((r) => ({ lot_id: r.lot_id, source: r.source }))),
          },
          type: QueryTypes.SELECT,
          transaction,
        },
      );
      for (const row of removed) {
        if (row.storage_key) removedKeys.push(row.storage_key);
        if (row.thumb_key) removedKeys.push(row.thumb_key);
      }
      const lostPictures = [...new Set(removed.filter((r) => r.storage_key).map((r) => r.lot_id))];
      await refreshLotImageUrls(lostPictures, transaction);
    }
    if (insert.length > 0)
      await sequelize.query(
        `INSERT INTO lot_images (lot_id, source, position, source_url, next_attempt_at)
         SELECT r.lot_id, r.source, 0, r.url, :at
           FROM jsonb_to_recordset(:rows::jsonb) AS r(lot_id bigint, source text, url text)
         ON CONFLICT (lot_id, source, position) DO NOTHING`,
        {
          replacements: {
            rows: JSON.stringify(
              insert.map((r) => ({ lot_id: r.lot_id, source: r.source, url: r.url })),
            ),
            at: now(),
          },
          transaction,
        },
      );
    return insert.length;
  });
  await deleteObjects(removedKeys);
  return recorded;
}

/**
 * Sets each lot's image_urls to its stored pictures in order: those from "Image URL" and its
 * list, or (when it has none of those) the feed's thumbnail. A lot with none gets an empty list
 * and shows its drawing. The lots are locked first, so the list is read after any other
 * worker's picture of the same lot has committed (two workers never drop each other's).
 */
async function refreshLotImageUrls(lotIds: string[], transaction: Transaction) {
  if (lotIds.length === 0) return;
  await sequelize.query(
    `SELECT id FROM lots WHERE id IN (SELECT jsonb_array_elements_text(:ids::jsonb)::bigint)
      ORDER BY id FOR UPDATE`,
    { replacements: { ids: JSON.stringify(lotIds) }, type: QueryTypes.SELECT, transaction },
  );
  await sequelize.query(
    `UPDATE lots l SET image_urls = coalesce(
        (SELECT array_agg(:path || i.id ORDER BY i.position, i.id) FROM lot_images i
          WHERE i.lot_id = l.id AND i.status = 'stored' AND i.source <> 'image_thumbnail'),
        (SELECT array_agg(:path || i.id ORDER BY i.id) FROM lot_images i
          WHERE i.lot_id = l.id AND i.status = 'stored' AND i.source = 'image_thumbnail'),
        '{}')
      WHERE l.id IN (SELECT jsonb_array_elements_text(:ids::jsonb)::bigint)`,
    { replacements: { path: LOT_PICTURE_PATH, ids: JSON.stringify(lotIds) }, transaction },
  );
}

async function deleteObjects(keys: string[]) {
  const results = await Promise.allSettled(keys.map((key) => storage().delete(key)));
  results.forEach((result, index) => {
    if (result.status === "rejected") console.error("lot picture object left behind:", keys[index]);
  });
}

// ---------------------------------------------------------------------------------------------
// Copart's list of a lot's pictures

/**
 * The picture URLs in Copart's list of a lot's pictures (what its "Image URL" answers:
 * `{"lotImages": [{"sequence": 1, "link": [{"url", "isThumbNail", "isHdImage"}, …]}, …]}`), one
 * per picture, the ordinary size first, in sequence order, at most LOT_PICTURE_LIMITS.perLot.
 * Null when the body is not such a list.
 */
export function copartPictureList(bytes: Uint8Array): string[] | null {
  if (bytes.length > 1_000_000) return null;
  const text = Buffer.from(bytes).toString("utf8").trim();
  if (!text.startsWith("{")) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const list = (data as { lotImages?: unknown })?.lotImages;
  if (!Array.isArray(list)) return null;
  type Link = { url?: unknown; isThumbNail?: unknown; isHdImage?: unknown };
  const entries = list
    .filter((entry): entry is { sequence?: unknown; link?: unknown } => Boolean(entry))
    .sort((a, b) => Number(a.sequence ?? 0) - Number(b.sequence ?? 0));
  const urls: string[] = [];
  for (const entry of entries) {
    const links = (Array.isArray(entry.link) ? entry.link : []) as Link[];
    const pick =
      links.find((l) => l && !l.isThumbNail && !l.isHdImage) ??
      links.find((l) => l?.isHdImage) ??
      links.find((l) => l?.isThumbNail);
    const url = typeof pick?.url === "string" ? feedPictureUrl(pick.url) : null;
    // the list also carries engine sound and walk-around video; those are not pictures
    if (!url || /\.(mp3|mp4|m4a|wav|webm|mov)(\?|$)/i.test(url) || urls.includes(url)) continue;
    urls.push(url);
    if (urls.length >= LOT_PICTURE_LIMITS.perLot) break;
  }
  return urls;
}

// ---------------------------------------------------------------------------------------------
// Fetching

type Claimed = {
  id: string;
  lot_id: string;
  source: "image_url" | "image_thumbnail" | "catalogue";
  source_url: string;
  attempts: number;
};

/** A picture refused for what it is (not an image, active content, unreadable): not retried. */
class PictureRefused extends Error {}

/**
 * Takes up to `limit` due pictures: pending and due, or claimed and abandoned. A feed thumbnail
 * waits while the lot's other pictures are still being fetched (it is only a stand-in).
 */
async function claimDue(limit: number, at: Date) {
  return sequelize.query<Claimed>(
    `UPDATE lot_images i
        SET status = 'fetching', attempts = i.attempts + 1, claimed_until = :claimedUntil,
            updated_at = now()
      WHERE i.id IN (
        SELECT c.id FROM lot_images c
         WHERE ((c.status = 'pending' AND c.next_attempt_at <= :at)
             OR (c.status = 'fetching' AND c.claimed_until < :at))
           AND (c.source <> 'image_thumbnail' OR NOT EXISTS (
                 SELECT 1 FROM lot_images o
                  WHERE o.lot_id = c.lot_id AND o.source <> 'image_thumbnail'
                    AND o.status IN ('pending', 'fetching')))
         ORDER BY c.id
         LIMIT :limit
         FOR UPDATE SKIP LOCKED)
      RETURNING i.id::text, i.lot_id::text, i.source, i.source_url, i.attempts`,
    {
      replacements: {
        at,
        limit,
        claimedUntil: new Date(at.getTime() + LOT_PICTURE_LIMITS.claimMs),
      },
      type: QueryTypes.SELECT,
    },
  );
}

/** Ends a claim; false when the row is no longer ours (a new import replaced it). */
async function settle(
  id: string,
  fields: Record<string, unknown>,
  transaction?: Transaction,
): Promise<boolean> {
  const names = Object.keys(fields);
  const rows = await sequelize.query<{ id: string }>(
    `UPDATE lot_images SET ${names.map((n) => `${n} = :${n}`).join(", ")},
            claimed_until = NULL, updated_at = now()
      WHERE id = :id AND status = 'fetching'
     RETURNING id::text`,
    { replacements: { ...fields, id }, type: QueryTypes.SELECT, transaction },
  );
  return rows.length > 0;
}

/** The picture's size and a WebP thumbnail LOT_PICTURE_LIMITS.thumbWidth wide (never larger). */
async function thumbnailOf(bytes: Uint8Array) {
  const sharp = await loadSharp();
  try {
    const image = sharp(bytes, IMAGE_INPUT);
    const meta = await image.metadata();
    const thumb = await image
      .clone()
      .rotate()
      .resize({ width: LOT_PICTURE_LIMITS.thumbWidth, withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
    const upright = meta.autoOrient ?? meta;
    return { thumb, width: upright.width ?? null, height: upright.height ?? null };
  } catch (error) {
    throw new PictureRefused(
      imageProblemOf(error) === "pixels"
        ? `This image is too large to read: at most ${MAX_IMAGE_MEGAPIXELS} megapixels`
        : "cannot be read as a picture",
    );
  }
}

function describeBody(contentType: string, bytes: Uint8Array) {
  const declared = contentType.split(";")[0].trim();
  const start = Buffer.from(bytes.subarray(0, 16))
    .toString("latin1")
    .replace(/[^\x20-\x7e]/g, ".");
  return `${declared || "no content type"}, starting "${start}"`;
}

export type PictureOutcome = "stored" | "expanded" | "skipped" | "retrying" | "failed";

async function fetchOne(row: Claimed, allowPrivate: boolean): Promise<PictureOutcome> {
  if (row.source === "image_thumbnail") {
    const [other] = await sequelize.query(
      `SELECT 1 FROM lot_images WHERE lot_id = :lotId AND source <> 'image_thumbnail'
          AND status = 'stored' LIMIT 1`,
      { replacements: { lotId: row.lot_id }, type: QueryTypes.SELECT },
    );
    if (other) {
      await settle(row.id, { status: "skipped", error: null });
      return "skipped";
    }
  }
  const stored: string[] = [];
  try {
    if (row.attempts > LOT_PICTURE_LIMITS.maxAttempts)
      throw new PictureRefused("given up: its claims ran out too often");
    const body = await fetchRemote(row.source_url, {
      timeoutMs: LOT_PICTURE_LIMITS.timeoutMs,
      maxBytes: LOT_PICTURE_LIMITS.maxBytes,
      allowPrivate,
      accept: "image/jpeg, image/png, image/webp, application/json;q=0.5",
    });
    const type = detectImageType(body.bytes.subarray(0, IMAGE_TYPE_SNIFF_BYTES));
    if (!type) {
      const list = row.source === "image_url" ? copartPictureList(body.bytes) : null;
      if (list === null)
        throw new PictureRefused(
          `not a JPEG, PNG or WebP picture (${describeBody(body.contentType, body.bytes)})`,
        );
      if (list.length === 0) throw new PictureRefused("its list of pictures names none");
      const listed = await sequelize.transaction(async (transaction) => {
        if (!(await settle(row.id, { status: "expanded", error: null }, transaction))) return false;
        await sequelize.query(
          `INSERT INTO lot_images (lot_id, source, position, source_url, next_attempt_at)
           SELECT :lotId, 'catalogue', u.n, u.url, :at
             FROM jsonb_array_elements_text(:urls::jsonb) WITH ORDINALITY AS u(url, n)
           ON CONFLICT (lot_id, source, position) DO NOTHING`,
          {
            replacements: { lotId: row.lot_id, urls: JSON.stringify(list), at: now() },
            transaction,
          },
        );
        return true;
      });
      return listed ? "expanded" : "skipped";
    }
    const active = activeContentIn(body.bytes, type);
    if (active) throw new PictureRefused(`refused: it carries ${active}`);
    const { thumb, width, height } = await thumbnailOf(body.bytes);
    const key = newObjectKey("lot-pictures");
    const thumbKey = `${key}_thumb`;
    stored.push(key);
    await storage().put(key, body.bytes, {
      contentType: IMAGE_CONTENT_TYPES[type],
      maxBytes: LOT_PICTURE_LIMITS.maxBytes,
    });
    stored.push(thumbKey);
    await storage().put(thumbKey, new Uint8Array(thumb), {
      contentType: "image/webp",
      maxBytes: LOT_PICTURE_LIMITS.maxBytes,
    });
    const kept = await sequelize.transaction(async (transaction) => {
      const ours = await settle(
        row.id,
        {
          status: "stored",
          storage_key: key,
          thumb_key: thumbKey,
          content_type: IMAGE_CONTENT_TYPES[type],
          width,
          height,
          stored_at: now(),
          error: null,
        },
        transaction,
      );
      if (ours) await refreshLotImageUrls([row.lot_id], transaction);
      return ours;
    });
    if (!kept) {
      await deleteObjects(stored);
      return "skipped";
    }
    return "stored";
  } catch (error) {
    // a put that failed may still have left part of an object behind
    await deleteObjects(stored);
    const permanent =
      error instanceof PictureRefused || (error instanceof RemoteFetchError && error.permanent);
    const giveUp = permanent || row.attempts >= LOT_PICTURE_LIMITS.maxAttempts;
    const message = String((error as Error)?.message ?? error).slice(0, 500);
    await settle(row.id, {
      status: giveUp ? "failed" : "pending",
      error: message,
      next_attempt_at: new Date(now().getTime() + pictureRetryDelayMs(row.attempts)),
    });
    return giveUp ? "failed" : "retrying";
  }
}

export type PictureReport = Record<PictureOutcome, number> & { claimed: number };

/**
 * Fetches one batch of due pictures, `concurrency` at a time. Safe on many machines at once.
 * `allowPrivate` defaults to the setting (tests and REMOTE_FETCH_ALLOW_PRIVATE only).
 */
export async function fetchLotPictures(
  options: { limit?: number; concurrency?: number; allowPrivate?: boolean } = {},
): Promise<PictureReport> {
  const report: PictureReport = {
    claimed: 0,
    stored: 0,
    expanded: 0,
    skipped: 0,
    retrying: 0,
    failed: 0,
  };
  const rows = await claimDue(options.limit ?? 6, now());
  report.claimed = rows.length;
  if (rows.length === 0) return report;
  const allowPrivate = options.allowPrivate ?? privateAddressesAllowed();
  const queue = [...rows];
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift())
      report[await fetchOne(row, allowPrivate)] += 1;
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  return report;
}

export type PictureProgress = { stored: number; wanted: number; failed: number; waiting: number };

/** Pictures stored of those wanted (a list expanded or a thumbnail not needed is not wanted). */
export async function pictureProgress(): Promise<PictureProgress> {
  const [row] = await sequelize.query<PictureProgress>(
    `SELECT count(*) FILTER (WHERE status = 'stored')::int AS stored,
            count(*) FILTER (WHERE status NOT IN ('expanded', 'skipped'))::int AS wanted,
            count(*) FILTER (WHERE status = 'failed')::int AS failed,
            count(*) FILTER (WHERE status IN ('pending', 'fetching'))::int AS waiting
       FROM lot_images`,
    { type: QueryTypes.SELECT },
  );
  return row;
}

/**
 * Fetches batch after batch until nothing is due now (the import command's pass); pictures
 * waiting for a retry are left to the fetch_lot_pictures job.
 */
export async function fetchDuePictures(
  onBatch: (report: PictureReport) => void | Promise<void>,
  options: { limit?: number; concurrency?: number; allowPrivate?: boolean } = {},
) {
  for (;;) {
    const report = await fetchLotPictures({ limit: 8, concurrency: 4, ...options });
    if (report.claimed === 0) return;
    await onBatch(report);
  }
}

// ---------------------------------------------------------------------------------------------
// Serving

/** A stored lot picture for /lot-pictures/{id} (?size=thumb for the thumbnail), or null. */
export async function readLotPicture(rawId: string | undefined, size: "full" | "thumb") {
  if (!rawId || !/^\d{1,18}$/.test(rawId)) return null;
  const [row] = await sequelize.query<{ storage_key: string; thumb_key: string }>(
    "SELECT storage_key, thumb_key FROM lot_images WHERE id = $1 AND status = 'stored'",
    { bind: [rawId], type: QueryTypes.SELECT },
  );
  if (!row) return null;
  return storage().read(size === "thumb" ? row.thumb_key : row.storage_key);
}
