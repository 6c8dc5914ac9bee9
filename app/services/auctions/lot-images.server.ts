// Lot pictures from the feed (docs/decisions/2105-lot-pictures.md, 3564). The import records the
// URLs a feed gives (recordFeedPictures) and, in the same transaction, queues one
// fetch_lot_pictures job per lot that got a new one (keyed by the lot: one pending per lot). The
// job downloads that lot's pictures (fetchPicturesOfLot), with no transaction open across a
// download: over http(s) only under a time limit and a 10 MB cap, checked by content (JPEG, PNG
// or WebP, nothing active inside), stored with a 480 px WebP thumbnail through the storage
// adapter and served by /lot-pictures/{id}. A failure that may pass (a timeout, a 5xx) throws, and
// the queue runs the job again with its backoff; a refusal for good (404, not a picture) fails
// that picture at once; after the job's last try what is still pending is left failed. A lot
// without pictures shows the drawing of its body style and colour (app/services/auctions/pictures.ts).
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { activeContentIn } from "~/platform/file-safety.server";
import { addJobs } from "~/platform/jobs/queue.server";
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
import { log } from "~/platform/log.server";

export const LOT_PICTURE_LIMITS = {
  /** The largest picture (or list of pictures) downloaded. */
  maxBytes: 10_485_760,
  timeoutMs: 15_000,
  /**
   * Tries of a lot's fetch_lot_pictures job before what is still pending is left failed. The
   * queue waits e^n seconds after try n (3 s, 7 s, 20 s, 55 s, 2.5 min, 7 min, 18 min): the
   * last try comes about half an hour after the first.
   */
  maxAttempts: 8,
  /** Pictures taken from one lot's list of pictures. */
  perLot: 12,
  thumbWidth: 480,
  /** Downloads at once within one lot's job. */
  concurrency: 2,
  /** The jobs' priority: lower runs first (closes -10, money mail -5, the rest 0). */
  priority: 5,
};

/** The job key of a lot's picture fetch: one pending per lot. */
export const lotPicturesJobKey = (lotId: string) => `lot-pictures:${lotId}`;

/**
 * Queues each lot's fetch_lot_pictures job in `transaction` (the one that recorded its pictures):
 * a write that rolls back queues nothing. A job already waiting for the lot is replaced (due now,
 * its tries afresh); one running keeps running and a new one follows it.
 */
export async function queueLotPictures(lotIds: string[], transaction: Transaction) {
  const unique = [...new Set(lotIds.map(String))];
  if (unique.length === 0) return;
  await addJobs(
    "fetch_lot_pictures",
    unique.map((lotId) => ({ payload: { lotId }, jobKey: lotPicturesJobKey(lotId) })),
    {
      transaction,
      maxAttempts: LOT_PICTURE_LIMITS.maxAttempts,
      jobKeyMode: "replace",
      // after everything else due: a file of 10,000 lots never holds up an alert or a close
      priority: LOT_PICTURE_LIMITS.priority,
    },
  );
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
    if (insert.length > 0) {
      const added = await sequelize.query<{ lot_id: string }>(
        `INSERT INTO lot_images (lot_id, source, position, source_url)
         SELECT r.lot_id, r.source, 0, r.url
           FROM jsonb_to_recordset(:rows::jsonb) AS r(lot_id bigint, source text, url text)
         ON CONFLICT (lot_id, source, position) DO NOTHING
         RETURNING lot_id::text`,
        {
          replacements: {
            rows: JSON.stringify(
              insert.map((r) => ({ lot_id: r.lot_id, source: r.source, url: r.url })),
            ),
          },
          type: QueryTypes.SELECT,
          transaction,
        },
      );
      await queueLotPictures(
        added.map((row) => row.lot_id),
        transaction,
      );
    }
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
    if (result.status === "rejected")
      log().error(
        { err: result.reason, object_key: keys[index] },
        "lot picture object left behind",
      );
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

type Pending = {
  id: string;
  lot_id: string;
  source: "image_url" | "image_thumbnail" | "catalogue";
  source_url: string;
};

/** A picture refused for what it is (not an image, active content, unreadable): not retried. */
class PictureRefused extends Error {}

/** Some of a lot's pictures failed in a way that may pass: the job throws it to be run again. */
export class PicturesStillPending extends Error {}

/** The lot's pending pictures, the feed's thumbnail (only a stand-in) last. */
async function pendingOf(lotId: string) {
  return sequelize.query<Pending>(
    `SELECT id::text, lot_id::text, source, source_url FROM lot_images
      WHERE lot_id = :lotId AND status = 'pending'
      ORDER BY (source = 'image_thumbnail'), position, id`,
    { replacements: { lotId }, type: QueryTypes.SELECT },
  );
}

/**
 * Records what became of a picture; false when it is no longer pending under the same URL (a
 * new import replaced it, or another run of the lot's job settled it first).
 */
async function settle(
  row: Pending,
  fields: Record<string, unknown>,
  transaction?: Transaction,
): Promise<boolean> {
  const names = Object.keys(fields);
  const rows = await sequelize.query<{ id: string }>(
    `UPDATE lot_images SET ${names.map((n) => `${n} = :${n}`).join(", ")}, updated_at = now()
      WHERE id = :id AND status = 'pending' AND source_url = :sourceUrl
     RETURNING id::text`,
    {
      replacements: { ...fields, id: row.id, sourceUrl: row.source_url },
      type: QueryTypes.SELECT,
      transaction,
    },
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

const messageOf = (error: unknown) => String((error as Error)?.message ?? error).slice(0, 500);

/**
 * Downloads, checks and stores one pending picture. No transaction is open during the download
 * or the storage writes; the outcome is written in a short one, only if the row is still
 * pending (two runs at once store it once: the other's objects are deleted). A failure that may
 * pass leaves it pending with its error ("retrying").
 */
async function fetchOne(row: Pending, allowPrivate: boolean): Promise<PictureOutcome> {
  const stored: string[] = [];
  try {
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
        if (!(await settle(row, { status: "expanded", error: null }, transaction))) return false;
        await sequelize.query(
          `INSERT INTO lot_images (lot_id, source, position, source_url)
           SELECT :lotId, 'catalogue', u.n, u.url
             FROM jsonb_array_elements_text(:urls::jsonb) WITH ORDINALITY AS u(url, n)
           ON CONFLICT (lot_id, source, position) DO NOTHING`,
          { replacements: { lotId: row.lot_id, urls: JSON.stringify(list) }, transaction },
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
        row,
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
    if (permanent) {
      await settle(row, { status: "failed", error: messageOf(error) });
      return "failed";
    }
    // still pending: the error says why, the lot's job is run again
    await sequelize.query(
      "UPDATE lot_images SET error = :error, updated_at = now() WHERE id = :id AND status = 'pending'",
      { replacements: { id: row.id, error: messageOf(error) } },
    );
    return "retrying";
  }
}

export type PictureReport = Record<PictureOutcome, number>;

/**
 * One try of a lot's fetch_lot_pictures job (record 3564): every pending picture of the lot,
 * LOT_PICTURE_LIMITS.concurrency at a time, those a Copart list names as they are found; the
 * feed's thumbnail only when nothing else gave the lot a picture. Throws PicturesStillPending
 * when a failure may pass, for the queue to run it again later; on the last try (`final`) those
 * are left failed instead. `allowPrivate` defaults to the setting (tests and
 * REMOTE_FETCH_ALLOW_PRIVATE only).
 */
export async function fetchPicturesOfLot(
  lotId: string,
  options: { final?: boolean; allowPrivate?: boolean } = {},
): Promise<PictureReport> {
  const report: PictureReport = { stored: 0, expanded: 0, skipped: 0, retrying: 0, failed: 0 };
  const allowPrivate = options.allowPrivate ?? privateAddressesAllowed();
  const tried = new Set<string>();
  const retrying: Pending[] = [];
  const run = async (rows: Pending[]) => {
    const queue = [...rows];
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        tried.add(row.id);
        const outcome = await fetchOne(row, allowPrivate);
        report[outcome] += 1;
        if (outcome === "retrying") retrying.push(row);
      }
    };
    await Promise.all(Array.from({ length: LOT_PICTURE_LIMITS.concurrency }, worker));
  };
  // the lot's own pictures, and those its list names once it is read
  for (;;) {
    const due = (await pendingOf(lotId)).filter(
      (row) => row.source !== "image_thumbnail" && !tried.has(row.id),
    );
    if (due.length === 0) break;
    await run(due);
  }
  if (options.final && retrying.length > 0) {
    for (const row of retrying)
      await sequelize.query(
        `UPDATE lot_images SET status = 'failed',
                error = left('given up after ' || :tries || ' tries: ' || coalesce(error, ''), 500),
                updated_at = now()
          WHERE id = :id AND status = 'pending' AND source_url = :sourceUrl`,
        {
          replacements: {
            id: row.id,
            sourceUrl: row.source_url,
            tries: LOT_PICTURE_LIMITS.maxAttempts,
          },
        },
      );
    report.failed += retrying.length;
    report.retrying -= retrying.length;
    retrying.length = 0;
  }
  // the feed's thumbnail is only a stand-in: fetched once nothing else is left to give a picture
  const rest = await pendingOf(lotId);
  const thumbnails = rest.filter((row) => row.source === "image_thumbnail");
  if (thumbnails.length > 0 && rest.length === thumbnails.length) {
    const [other] = await sequelize.query(
      `SELECT 1 FROM lot_images WHERE lot_id = :lotId AND source <> 'image_thumbnail'
          AND status = 'stored' LIMIT 1`,
      { replacements: { lotId }, type: QueryTypes.SELECT },
    );
    if (other) {
      for (const row of thumbnails)
        if (await settle(row, { status: "skipped", error: null })) report.skipped += 1;
    } else {
      await run(thumbnails);
      if (options.final)
        for (const row of retrying.splice(0)) {
          await settle(row, { status: "failed" });
          report.retrying -= 1;
          report.failed += 1;
        }
    }
  }
  if (retrying.length > 0) {
    const [first] = await sequelize.query<{ error: string | null }>(
      "SELECT error FROM lot_images WHERE id = :id",
      { replacements: { id: retrying[0].id }, type: QueryTypes.SELECT },
    );
    throw new PicturesStillPending(
      `lot ${lotId}: ${retrying.length} picture(s) to try again (${first?.error ?? "unknown"})`,
    );
  }
  return report;
}

/** The job's handler: its try number says whether this is the last. */
export function fetchLotPicturesJob(
  lotId: string,
  job: { attempt: number; maxAttempts: number },
  options: { allowPrivate?: boolean } = {},
) {
  return fetchPicturesOfLot(lotId, { ...options, final: job.attempt >= job.maxAttempts });
}

export type PictureProgress = { stored: number; wanted: number; failed: number; waiting: number };

/** Pictures stored of those wanted (a list expanded or a thumbnail not needed is not wanted). */
export async function pictureProgress(): Promise<PictureProgress> {
  const [row] = await sequelize.query<PictureProgress>(
    `SELECT count(*) FILTER (WHERE status = 'stored')::int AS stored,
            count(*) FILTER (WHERE status NOT IN ('expanded', 'skipped'))::int AS wanted,
            count(*) FILTER (WHERE status = 'failed')::int AS failed,
            count(*) FILTER (WHERE status = 'pending')::int AS waiting
       FROM lot_images`,
    { type: QueryTypes.SELECT },
  );
  return row;
}

/**
 * The import command's pass: each lot with pending pictures fetched now, `concurrency` lots at
 * a time, one try each (its job, queued by the import, runs too: whichever stores a picture
 * first keeps it). What fails in a way that may pass is left to the lot's job and its retries.
 */
export async function fetchDuePictures(
  onLot: (report: PictureReport) => void | Promise<void>,
  options: { concurrency?: number; allowPrivate?: boolean } = {},
) {
  const lots = await sequelize.query<{ lot_id: string }>(
    "SELECT DISTINCT lot_id::text FROM lot_images WHERE status = 'pending' ORDER BY lot_id",
    { type: QueryTypes.SELECT },
  );
  const queue = lots.map((row) => row.lot_id);
  const worker = async () => {
    for (let lotId = queue.shift(); lotId; lotId = queue.shift()) {
      try {
        await onLot(await fetchPicturesOfLot(lotId, { allowPrivate: options.allowPrivate }));
      } catch (error) {
        if (!(error instanceof PicturesStillPending)) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
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
